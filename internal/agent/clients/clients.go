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
	"github.com/ralph-gate/ralph-gate/internal/shellwrap"
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

// ForCommand returns the client a command line runs: its first word, past
// environment assignments and the wrappers that run a command (shellwrap:
// env, npx, exec, nohup, sudo, timeout, ...), when a client Runs it; nil for
// none.
func ForCommand(command string) agent.Client {
	words := strings.Fields(command)
	for i, w := range words {
		words[i] = strings.Trim(w, `'"`)
	}
	for {
		for len(words) > 0 && !strings.HasPrefix(words[0], "-") && strings.Contains(words[0], "=") {
			words = words[1:] // VAR=x cmd
		}
		inner := shellwrap.Unwrap(words)
		if len(inner) == len(words) {
			break
		}
		words = inner
	}
	if len(words) == 0 {
		return nil
	}
	name := strings.TrimSuffix(filepath.Base(words[0]), ".exe")
	for _, c := range All {
		if c.Runs(name) {
			return c
		}
	}
	return nil
}
