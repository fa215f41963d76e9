// Package clients is the registry of the agent clients ralph-gate knows:
// the one place that imports every adapter. A new client is a folder under
// internal/agent and one line in All.
package clients

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/agent"
	"github.com/ralph-gate/ralph-gate/internal/agent/claude"
	"github.com/ralph-gate/ralph-gate/internal/agent/codex"
)

// All is every client, in the order they are listed to users.
var All = []agent.Client{
	claude.Client{},
	codex.Client{},
}

// Default is the client a hook call is decoded for when the hook command
// names none: Claude Code, whose hook JSON the guard was first written for.
var Default agent.Client = claude.Client{}

// Names lists the clients' names.
func Names() []string {
	var out []string
	for _, c := range All {
		out = append(out, c.Name())
	}
	return out
}

// Lookup returns the client of a name.
func Lookup(name string) (agent.Client, error) {
	for _, c := range All {
		if c.Name() == name {
			return c, nil
		}
	}
	return nil, fmt.Errorf("unknown agent client %q: want %s", name, strings.Join(Names(), " or "))
}

// ForCommand returns the client a command line runs: the first word of it,
// past environment assignments and the wrappers that run a command (env,
// npx, exec, nohup, command), that a client Runs; nil for none.
func ForCommand(command string) agent.Client {
	for _, f := range strings.Fields(command) {
		f = strings.Trim(f, `'"`)
		if strings.HasPrefix(f, "-") || strings.Contains(f, "=") {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(f), ".exe")
		for _, c := range All {
			if c.Runs(name) {
				return c
			}
		}
		switch name {
		case "env", "npx", "exec", "nohup", "command", "time", "sudo":
			continue
		}
		return nil
	}
	return nil
}
