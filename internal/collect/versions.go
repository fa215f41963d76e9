package collect

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/ralph-gate/ralph-gate/internal/config"
)

// versionCommands maps the programs collectors commonly start to the
// commands that print the versions deciding their results. Programs the
// project installs itself (./node_modules/.bin/tsc, vitest through npx) are
// pinned by its lockfile, which the tree hash already covers.
var versionCommands = map[string][][]string{
	"go":            {{"go", "version"}},
	"node":          {{"node", "--version"}},
	"npm":           {{"node", "--version"}, {"npm", "--version"}},
	"npx":           {{"node", "--version"}, {"npm", "--version"}},
	"pnpm":          {{"node", "--version"}, {"pnpm", "--version"}},
	"yarn":          {{"node", "--version"}, {"yarn", "--version"}},
	"python":        {{"python", "--version"}},
	"python3":       {{"python3", "--version"}},
	"pytest":        {{"pytest", "--version"}},
	"golangci-lint": {{"golangci-lint", "--version"}},
	"ruff":          {{"ruff", "--version"}},
	"tsc":           {{"node", "--version"}},
	"eslint":        {{"node", "--version"}},
}

var versionMemo sync.Map // probe argv -> version string

// ToolVersions returns the versions of the tools the collectors invoke,
// keyed by the probe's command line ("go version": "go version go1.26.0
// linux/amd64"). A Python collector that runs pytest also records pytest's
// version. A program without a known probe is recorded by the path it
// resolves to; one that is not installed as "not installed". Probes run
// outside any checkout (the tree hash covers go.mod's toolchain line and the
// lockfiles) and are remembered for the life of the process.
func ToolVersions(ctx context.Context, specs []config.Collector) map[string]string {
	probes := map[string][]string{}
	for _, s := range specs {
		prog, args := program(s)
		if prog == "" {
			continue
		}
		cmds, ok := versionCommands[path.Base(prog)]
		if !ok {
			key := "path " + prog
			if p, err := lookPath(prog, probeEnv()); err == nil {
				probes[key] = nil
				versionMemo.LoadOrStore(key, p)
			} else {
				probes[key] = nil
				versionMemo.LoadOrStore(key, "not installed")
			}
			continue
		}
		for _, c := range cmds {
			c = resolved(c, prog)
			probes[strings.Join(c, " ")] = c
		}
		if strings.HasPrefix(path.Base(prog), "python") && contains(args, "pytest") {
			c := resolved([]string{prog, "-m", "pytest", "--version"}, prog)
			probes[strings.Join(c, " ")] = c
		}
	}
	out := make(map[string]string, len(probes))
	for key, argv := range probes {
		if v, ok := versionMemo.Load(key); ok {
			out[key] = v.(string)
			continue
		}
		v := probeVersion(ctx, argv)
		if ctx.Err() == nil {
			versionMemo.Store(key, v)
		}
		out[key] = v
	}
	return out
}

// resolved returns a probe with its program replaced by the absolute path it
// resolves to (the collector's own program when the probe runs it: a
// configured /usr/bin/python3 is probed, not python3 from PATH), so that
// probes are remembered by what they ran and two interpreters of one name
// never share a version, or a cache entry.
func resolved(probe []string, prog string) []string {
	name := probe[0]
	if path.Base(prog) == name || prog == name {
		name = prog
	}
	out := append([]string(nil), probe...)
	if p, err := lookPath(name, probeEnv()); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		out[0] = p
	}
	return out
}

// program returns the program a collector starts and its arguments: argv[0],
// or for a shell command the first word that is not a variable assignment.
func program(s config.Collector) (string, []string) {
	if len(s.Argv) == 0 {
		return "", nil
	}
	if !s.Shell {
		return s.Argv[0], s.Argv[1:]
	}
	words := strings.Fields(s.Argv[0])
	for i, w := range words {
		if strings.Contains(w, "=") && !strings.HasPrefix(w, "-") {
			continue
		}
		return w, words[i+1:]
	}
	return "", nil
}

func probeVersion(ctx context.Context, argv []string) string {
	ctx, cancel := context.WithTimeout(ctx, versionTimeout)
	defer cancel()
	env := probeEnv()
	bin, err := lookPath(argv[0], env)
	if err != nil {
		return "not installed"
	}
	cmd := exec.CommandContext(ctx, bin, argv[1:]...)
	cmd.Dir = os.TempDir()
	cmd.Env = env
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	if err := cmd.Run(); err != nil {
		return "unavailable: " + firstLine(strings.TrimSpace(b.String()+" "+err.Error()))
	}
	return firstLine(strings.TrimSpace(b.String()))
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
