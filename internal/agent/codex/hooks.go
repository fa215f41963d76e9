package codex

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ralph-gate/ralph-gate/internal/agent"
	"github.com/ralph-gate/ralph-gate/internal/agent/hooksfile"
)

var _ agent.Client = Client{}

// Preset runs Codex non-interactively with JSON lines on standard output
// (turn.completed carries the usage). exec never asks for approval; the
// workspace-write sandbox lets it write in the work tree and run commands
// there (bubblewrap and seccomp; .git stays read-only, and ralph-gate
// commits). The hooks feature is on whatever the user's configuration says
// (--enable hooks). Interactive shells are off (unified_exec_tty): a command typed
// into one through write_stdin would reach no hook. Commands run in a plain
// shell, not a login shell whose profile resets PATH. The run adds the
// guard's hooks, trusted for that run (RunArgs).
func (Client) Preset() string {
	return "codex exec --json --sandbox workspace-write --enable hooks --disable unified_exec_tty -c allow_login_shell=false"
}

// Payload is the hook input Codex writes on a hook's standard input,
// holding only the fields the guard uses. Its shape follows Claude Code's:
//
//	{"session_id": "...", "cwd": "/p", "hook_event_name": "PreToolUse",
//	 "tool_name": "apply_patch", "tool_input": {"command": "*** Begin Patch\n..."}}
type Payload struct {
	SessionID      string          `json:"session_id"`
	Cwd            string          `json:"cwd"`
	HookEventName  string          `json:"hook_event_name"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolResponse   json.RawMessage `json:"tool_response"`
	StopHookActive bool            `json:"stop_hook_active"`
}

// commandInput is the input of Codex's shell tools and of apply_patch
// (the patch is its command), as a string or as an argv list.
type commandInput struct {
	Command json.RawMessage `json:"command"`
	Cmd     json.RawMessage `json:"cmd"`
	Input   *string         `json:"input"`
	Workdir string          `json:"workdir"`
}

// Decode implements agent.Client.
func (Client) Decode(event agent.Event, data []byte) (*agent.Call, error) {
	if len(data) > agent.MaxPayload {
		return nil, fmt.Errorf("hook input is larger than %d MiB", agent.MaxPayload>>20)
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, errors.New("hook input is empty: want Codex's hook JSON on standard input")
	}
	if trimmed[0] != '{' {
		return nil, errors.New("hook input is not a JSON object")
	}
	var p Payload
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("hook input: %s", agent.OneLine(err.Error()))
	}
	if dec.More() {
		return nil, errors.New("hook input: more than one JSON value")
	}
	if p.HookEventName != "" && p.HookEventName != string(event) {
		return nil, fmt.Errorf("hook input is a %q event, not %s (check the hook's command in hooks.json)", agent.OneLine(p.HookEventName), event)
	}
	c := &agent.Call{Event: event, Tool: p.ToolName, Cwd: p.Cwd, SessionID: p.SessionID, Input: p.ToolInput, Response: p.ToolResponse, StopActive: p.StopHookActive}
	if event == agent.Stop {
		return c, nil
	}
	if p.ToolName == "" {
		return nil, fmt.Errorf("hook input for %s has no tool_name", event)
	}
	switch p.ToolName {
	case "apply_patch":
		text, err := commandText(p)
		if err != nil {
			return nil, err
		}
		patch, err := ParsePatch(text)
		if err != nil {
			// A patch the guard cannot read is not let through unjudged
			// (Codex's reading may be more lenient than this one): the
			// call is refused, and the agent writes it in the usual form.
			return nil, fmt.Errorf("%v; the guard judges only patches it can read: write it as *** Begin Patch ... *** End Patch", err)
		}
		c.Changes = patch.Changes()
	case "shell", "Bash", "exec_command", "local_shell", "container.exec", "shell_command":
		text, err := commandText(p)
		if err != nil {
			return nil, err
		}
		c.Command = &text
		// Codex applies `apply_patch <<'EOF' ... EOF` in a shell command as
		// a patch itself: its files are judged as apply_patch's are.
		for _, hp := range heredocPatches(text) {
			patch, err := ParsePatch(hp.text)
			if err != nil {
				return nil, fmt.Errorf("%v (in the command's apply_patch heredoc); the guard judges only patches it can read", err)
			}
			for _, ch := range patch.Changes() {
				ch.Path = inDir(hp.dir, ch.Path)
				if ch.MoveTo != "" {
					ch.MoveTo = inDir(hp.dir, ch.MoveTo)
				}
				c.Changes = append(c.Changes, ch)
			}
		}
	}
	return c, nil
}

// heredocPatch is an apply_patch heredoc in a shell command, and the
// directory a `cd DIR &&` before it moves to ("" for none).
type heredocPatch struct{ dir, text string }

// heredocPatches finds `apply_patch <<EOF` (or applypatch) in a script.
func heredocPatches(script string) []heredocPatch {
	f, err := syntax.NewParser().Parse(strings.NewReader(script), "")
	if err != nil {
		return nil
	}
	var out []heredocPatch
	var walk func(n syntax.Node, dir string)
	walk = func(n syntax.Node, dir string) {
		syntax.Walk(n, func(n syntax.Node) bool {
			switch x := n.(type) {
			case *syntax.BinaryCmd:
				if x.Op == syntax.AndStmt {
					if d, ok := cdTarget(x.X); ok {
						walk(x.Y, inDir(dir, d))
						return false
					}
				}
			case *syntax.Stmt:
				ce, ok := x.Cmd.(*syntax.CallExpr)
				if !ok || len(ce.Args) == 0 {
					return true
				}
				name := ce.Args[0].Lit()
				if name != "apply_patch" && name != "applypatch" {
					return true
				}
				for _, r := range x.Redirs {
					if (r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc) && r.Hdoc != nil {
						out = append(out, heredocPatch{dir: dir, text: hdocText(r.Hdoc)})
					}
				}
			}
			return true
		})
	}
	walk(f, "")
	return out
}

// cdTarget is the directory of a `cd DIR` statement.
func cdTarget(s *syntax.Stmt) (string, bool) {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) != 2 || ce.Args[0].Lit() != "cd" {
		return "", false
	}
	var b strings.Builder
	for _, p := range ce.Args[1].Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		default:
			return "", false
		}
	}
	return b.String(), true
}

// hdocText is a heredoc's body as the shell passes it (a quoted delimiter
// keeps it literal; the parser keeps the literal parts either way).
func hdocText(w *syntax.Word) string {
	var b strings.Builder
	syntax.Walk(w, func(n syntax.Node) bool {
		if l, ok := n.(*syntax.Lit); ok {
			b.WriteString(l.Value)
		}
		return true
	})
	return b.String()
}

// inDir places p under dir when p is relative and dir is set.
func inDir(dir, p string) string {
	if dir == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// commandText is a tool's command: a string, or an argv list joined as the
// shell would read it (["bash", "-lc", "go test ./..."] is the script).
func commandText(p Payload) (string, error) {
	raw := bytes.TrimSpace(p.ToolInput)
	if len(raw) == 0 || raw[0] != '{' {
		return "", fmt.Errorf("hook input: tool_input of %s is not a JSON object", p.ToolName)
	}
	var in commandInput
	if err := json.Unmarshal(raw, &in); err != nil {
		return "", fmt.Errorf("hook input: tool_input of %s: %s", p.ToolName, agent.OneLine(err.Error()))
	}
	for _, field := range []json.RawMessage{in.Command, in.Cmd} {
		if len(field) == 0 {
			continue
		}
		var s string
		if json.Unmarshal(field, &s) == nil {
			return s, nil
		}
		var argv []string
		if json.Unmarshal(field, &argv) == nil && len(argv) > 0 {
			if len(argv) >= 3 && (argv[1] == "-lc" || argv[1] == "-c") && strings.HasSuffix(filepath.Base(argv[0]), "sh") {
				return argv[2], nil
			}
			return shellJoin(argv), nil
		}
		return "", fmt.Errorf("hook input: tool_input of %s: command is neither a string nor a list of strings", p.ToolName)
	}
	if in.Input != nil {
		return *in.Input, nil
	}
	return "", fmt.Errorf("hook input: tool_input of %s has no command", p.ToolName)
}

func shellJoin(argv []string) string {
	var b strings.Builder
	for i, a := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		if a != "" && !strings.ContainsAny(a, " \t\n'\"\\$`;&|<>()*?[]{}~#!") {
			b.WriteString(a)
			continue
		}
		b.WriteString("'" + strings.ReplaceAll(a, "'", `'\''`) + "'")
	}
	return b.String()
}

// Encode implements agent.Client: Codex reads Claude Code's hook output
// (agent.EncodeHookJSON); a denial or a block it reads with exit 0.
func (Client) Encode(event agent.Event, a agent.Answer) ([]byte, error) {
	return agent.EncodeHookJSON(event, a)
}

// Hooks implements agent.Client. A run passes the guard's hooks on the
// command line, trusted for that run only (ConfigArgs): nothing is written
// and the user's own hooks keep their trust. guard install writes them into
// the user's hooks.json (CODEX_HOME, default ~/.codex), where Codex runs
// them once the user trusted them in its hooks review.
func (Client) Hooks(root, home string, getenv func(string) string) agent.HookSetup {
	shared := ""
	if dir := codexHome(home, getenv); dir != "" {
		shared = filepath.Join(dir, "hooks.json")
	}
	return agent.HookSetup{
		Shared:     shared,
		SharedFrom: "HOME or CODEX_HOME",
		Install: func(path string, cmd func(agent.Event) string, uninstall bool) (bool, error) {
			return hooksfile.InstallFile(path, hookSpecs(cmd), ours, uninstall)
		},
		Installed: func(path string) bool {
			data, err := os.ReadFile(path)
			return err == nil && hooksfile.Installed(data, hookSpecs(func(agent.Event) string { return "" }), ours)
		},
		RunArgs: func(cmd func(agent.Event) string) string { return shellWords(ConfigArgs(guardHooks(cmd))) },
		Trust:   "Codex runs hooks only once they are trusted: review and trust them in Codex (/hooks), or run with --dangerously-bypass-hook-trust",
	}
}

// codexHome is Codex's configuration directory: CODEX_HOME, else ~/.codex.
func codexHome(home string, getenv func(string) string) string {
	if dir := getenv("CODEX_HOME"); dir != "" {
		return dir
	}
	if home != "" {
		return filepath.Join(home, ".codex")
	}
	return ""
}

// hookSpecs are the guard's hooks in a hooks.json.
func hookSpecs(cmd func(agent.Event) string) []hooksfile.Hook {
	var out []hooksfile.Hook
	for _, h := range guardHooks(cmd) {
		out = append(out, hooksfile.Hook{Event: h.Event, Matcher: h.Matcher, Command: h.Command, Timeout: h.Timeout})
	}
	return out
}

func ours(cmd string) bool {
	return hooksfile.GuardCommand(cmd, "ralph-gate", "pre-tool-use", "post-tool-use", "stop")
}

// Own implements agent.Client: the hooks and configuration of the project
// (.codex/) and of CODEX_HOME (default ~/.codex), where hooks, their trust
// (hooks.state) and the sandbox are decided.
func (Client) Own(root, home string, getenv func(string) string) []string {
	var out []string
	if root != "" {
		out = append(out, filepath.Join(root, ".codex", "hooks.json"), filepath.Join(root, ".codex", "config.toml"))
	}
	if dir := codexHome(home, getenv); dir != "" {
		out = append(out, filepath.Join(dir, "hooks.json"), filepath.Join(dir, "config.toml"))
	}
	return out
}
