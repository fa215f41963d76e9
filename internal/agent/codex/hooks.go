package codex

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/agent"
	"github.com/ralph-gate/ralph-gate/internal/agent/hooksfile"
)

var _ agent.Client = Client{}

// Preset runs Codex non-interactively with JSON lines on standard output
// (turn.completed carries the usage). It may write in the work tree and run
// commands without asking (workspace-write, approvals never), and it trusts
// the hooks ralph-gate installs for the run.
func (Client) Preset() string {
	return "codex exec --json --sandbox workspace-write -c approval_policy=never"
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
		return nil, fmt.Errorf("hook input: %s", firstLine(err.Error()))
	}
	if dec.More() {
		return nil, errors.New("hook input: more than one JSON value")
	}
	if p.HookEventName != "" && p.HookEventName != string(event) {
		return nil, fmt.Errorf("hook input is a %q event, not %s (check the hook's command in hooks.json)", firstLine(p.HookEventName), event)
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
			// Codex refuses a patch it cannot parse: nothing changes.
			return c, nil
		}
		c.Changes = patch.Changes()
		if p.Cwd != "" {
			for i := range c.Changes {
				c.Changes[i].Path = under(p.Cwd, c.Changes[i].Path)
				if c.Changes[i].MoveTo != "" {
					c.Changes[i].MoveTo = under(p.Cwd, c.Changes[i].MoveTo)
				}
			}
		}
	case "shell", "Bash", "exec_command", "local_shell", "container.exec", "shell_command":
		text, err := commandText(p)
		if err != nil {
			return nil, err
		}
		c.Command = &text
	}
	return c, nil
}

func under(cwd, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(cwd, p)
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
		return "", fmt.Errorf("hook input: tool_input of %s: %s", p.ToolName, firstLine(err.Error()))
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

func firstLine(s string) string {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}

// Encode implements agent.Client. Codex reads the same hook outputs as
// Claude Code: a PreToolUse denial in hookSpecificOutput, a block with a
// reason, a systemMessage for the user.
func (Client) Encode(event agent.Event, a agent.Answer) ([]byte, error) {
	if a.Empty() {
		return nil, nil
	}
	out := map[string]any{}
	if a.Warn != "" {
		out["systemMessage"] = a.Warn
	}
	switch {
	case a.Deny != "" && event == agent.PreToolUse:
		out["hookSpecificOutput"] = map[string]any{"hookEventName": string(event), "permissionDecision": "deny", "permissionDecisionReason": a.Deny}
	case a.Block != "" && (event == agent.Stop || event == agent.PostToolUse):
		out["decision"] = "block"
		out["reason"] = a.Block
	case a.Deny != "" || a.Block != "":
		return nil, fmt.Errorf("codex: no answer of this kind to a %s hook", event)
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Hooks implements agent.Client: the project's .codex/hooks.json.
func (Client) Hooks(root string) agent.HookSetup {
	rel := filepath.Join(".codex", "hooks.json")
	return agent.HookSetup{
		File: filepath.Join(root, rel), Exclude: filepath.ToSlash(rel), Shared: filepath.Join(root, rel),
		Install: func(path string, cmd func(agent.Event) string, uninstall bool) (bool, error) {
			return hooksfile.InstallFile(path, hookSpecs(cmd), ours, uninstall)
		},
		Installed: func(path string) bool {
			data, err := os.ReadFile(path)
			return err == nil && hooksfile.Installed(data, hookSpecs(func(agent.Event) string { return "" }), ours)
		},
		Args: "--dangerously-bypass-hook-trust",
	}
}

func hookSpecs(cmd func(agent.Event) string) []hooksfile.Hook {
	return []hooksfile.Hook{
		{Event: string(agent.PreToolUse), Matcher: "*", Command: cmd(agent.PreToolUse)},
		{Event: string(agent.PostToolUse), Matcher: "*", Command: cmd(agent.PostToolUse)},
		{Event: string(agent.Stop), Command: cmd(agent.Stop), Timeout: 900},
	}
}

func ours(cmd string) bool {
	return hooksfile.GuardCommand(cmd, "ralph-gate", "pre-tool-use", "post-tool-use", "stop")
}

// Own implements agent.Client: the hooks and config files of the project
// and of CODEX_HOME (default ~/.codex), where hooks, their trust and the
// sandbox are decided.
func (Client) Own(root, home string, getenv func(string) string) []string {
	var out []string
	if root != "" {
		out = append(out, filepath.Join(root, ".codex", "hooks.json"), filepath.Join(root, ".codex", "config.toml"))
	}
	dir := getenv("CODEX_HOME")
	if dir == "" && home != "" {
		dir = filepath.Join(home, ".codex")
	}
	if dir != "" {
		out = append(out, filepath.Join(dir, "hooks.json"), filepath.Join(dir, "config.toml"))
	}
	return out
}
