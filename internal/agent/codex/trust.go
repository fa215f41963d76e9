package codex

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/agent"
)

// Hook is one command hook in Codex's configuration.
type Hook struct {
	// Event is the event as config.toml and hooks.json name it
	// (PreToolUse); Key is Codex's snake_case label of it (pre_tool_use).
	Event, Key string
	// Matcher is the tool-name pattern, "" for every tool (and for the
	// events that take none).
	Matcher string
	Command string
	// Timeout is in seconds (Codex's default is 600).
	Timeout int
}

// defaultTimeout is Codex's hook timeout; the Stop hook runs the
// completion command and gets longer.
const (
	defaultTimeout = 600
	stopTimeout    = 900
)

// guardHooks are the guard's hooks for Codex: no matcher, so that every
// tool (shell, apply_patch, MCP tools, subagents') reaches them.
func guardHooks(cmd func(agent.Event) string) []Hook {
	return []Hook{
		{Event: string(agent.PreToolUse), Key: "pre_tool_use", Command: cmd(agent.PreToolUse), Timeout: defaultTimeout},
		{Event: string(agent.PostToolUse), Key: "post_tool_use", Command: cmd(agent.PostToolUse), Timeout: defaultTimeout},
		{Event: string(agent.Stop), Key: "stop", Command: cmd(agent.Stop), Timeout: stopTimeout},
	}
}

// TrustHash is the trusted_hash Codex 0.169.0 keeps for a command hook it
// may run (hook_hash in codex-rs/hooks/src/engine/discovery.rs):
// "sha256:" and the hex SHA-256 of the compact JSON, keys sorted, of
//
//	{"event_name":"pre_tool_use","hooks":[{"async":false,"command":"...","timeout":600,"type":"command"}],"matcher":"..."}
//
// with "matcher" left out when there is none. Codex runs no hook whose
// hash is not trusted, and says nothing about it.
func TrustHash(h Hook) string {
	identity := map[string]any{
		"event_name": h.Key,
		"hooks":      []any{map[string]any{"type": "command", "command": h.Command, "timeout": h.Timeout, "async": false}},
	}
	if h.Matcher != "" {
		identity["matcher"] = h.Matcher
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(identity)
	sum := sha256.Sum256(bytes.TrimRight(b.Bytes(), "\n"))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// ConfigArgs are the -c overrides that install hooks for one run and trust
// them, writing nothing: hooks given with -c belong to Codex's "session
// flags" layer, keyed "/<session-flags>/config.toml:<event key>:<group>:
// <handler>", and their trust is read from hooks.state, which -c sets too
// (an inline table, since the keys hold dots; Codex merges it with the
// user's own). One group per event.
func ConfigArgs(hooks []Hook) []string {
	var args, state []string
	for _, h := range hooks {
		group := "hooks=[{type=\"command\",command=" + TOMLString(h.Command) + fmt.Sprintf(",timeout=%d}]", h.Timeout)
		if h.Matcher != "" {
			group = "matcher=" + TOMLString(h.Matcher) + "," + group
		}
		args = append(args, "-c", "hooks."+h.Event+"=[{"+group+"}]")
		state = append(state, TOMLString("/<session-flags>/config.toml:"+h.Key+":0:0")+"={trusted_hash="+TOMLString(TrustHash(h))+"}")
	}
	return append(args, "-c", "hooks.state={"+strings.Join(state, ",")+"}")
}

// TOMLString quotes s as a TOML basic string (JSON's escapes are TOML's).
func TOMLString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimRight(b.String(), "\n")
}

// shellWords joins arguments for sh -c, each in single quotes when it needs
// quoting.
func shellWords(args []string) string {
	var out []string
	for _, a := range args {
		if a != "" && !strings.ContainsAny(a, " \t\n'\"\\$`;&|<>()*?[]{}~#!=,") {
			out = append(out, a)
			continue
		}
		out = append(out, "'"+strings.ReplaceAll(a, "'", `'\''`)+"'")
	}
	return strings.Join(out, " ")
}
