package claude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/agent"
)

// fixture reads a testdata payload with @ROOT@ replaced.
func fixture(t testing.TB, name, root string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return []byte(strings.ReplaceAll(string(data), "@ROOT@", filepath.ToSlash(root)))
}

func TestDecodePayload(t *testing.T) {
	tests := []struct {
		name, in string
		event    agent.Event
		err      string
	}{
		{name: "write", event: agent.PreToolUse, in: `{"hook_event_name":"PreToolUse","cwd":"/r","tool_name":"Write","tool_input":{"file_path":"/r/a.go","content":""}}`},
		{name: "unknown tool", event: agent.PreToolUse, in: `{"tool_name":"WebFetch","tool_input":{"url":"x"}}`},
		{name: "stop", event: agent.Stop, in: `{"hook_event_name":"Stop","stop_hook_active":true}`},
		{name: "extra fields", event: agent.PostToolUse, in: `{"tool_name":"Bash","tool_input":{"command":"ls","run_in_background":false},"tool_response":{"stdout":"x"},"new_field":[1,2]}`},
		{name: "empty", event: agent.PreToolUse, in: "  \n", err: "hook input is empty"},
		{name: "array", event: agent.PreToolUse, in: `[]`, err: "not a JSON object"},
		{name: "broken", event: agent.PreToolUse, in: `{"tool_name":`, err: "hook input: unexpected EOF"},
		{name: "two values", event: agent.PreToolUse, in: `{"tool_name":"Bash","tool_input":{"command":"ls"}} {}`, err: "more than one JSON value"},
		{name: "wrong event", event: agent.PreToolUse, in: `{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`, err: `is a "PostToolUse" event, not PreToolUse`},
		{name: "no tool", event: agent.PreToolUse, in: `{"hook_event_name":"PreToolUse"}`, err: "no tool_name"},
		{name: "no input", event: agent.PreToolUse, in: `{"tool_name":"Edit"}`, err: "tool_input of Edit is not a JSON object"},
		{name: "no file", event: agent.PreToolUse, in: `{"tool_name":"Write","tool_input":{"content":"x"}}`, err: "has no file_path"},
		{name: "no content", event: agent.PreToolUse, in: `{"tool_name":"Write","tool_input":{"file_path":"a"}}`, err: "has no content"},
		{name: "wrong type", event: agent.PreToolUse, in: `{"tool_name":"Edit","tool_input":{"file_path":1}}`, err: "tool_input of Edit: json: cannot unmarshal"},
		{name: "no edits", event: agent.PreToolUse, in: `{"tool_name":"MultiEdit","tool_input":{"file_path":"a","edits":[]}}`, err: "has no edits"},
		{name: "edit without strings", event: agent.PreToolUse, in: `{"tool_name":"MultiEdit","tool_input":{"file_path":"a","edits":[{"old_string":"x"}]}}`, err: "edits[0]"},
		{name: "no command", event: agent.PreToolUse, in: `{"tool_name":"Bash","tool_input":{}}`, err: "has no command"},
		{name: "stop_hook_active not bool", event: agent.Stop, in: `{"stop_hook_active":"yes"}`, err: "cannot unmarshal"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodePayload([]byte(tc.in), tc.event)
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.err != "" && err == nil:
				t.Fatalf("no error, want %q", tc.err)
			case tc.err != "" && !strings.Contains(err.Error(), tc.err):
				t.Fatalf("error %q does not say %q", err, tc.err)
			case err != nil && strings.ContainsAny(err.Error(), "\r\n"):
				t.Fatalf("error has more than one line: %q", err)
			}
		})
	}
}

func TestFixturesParse(t *testing.T) {
	for file, event := range map[string]agent.Event{
		"pre-tool-use-write.json": agent.PreToolUse, "pre-tool-use-edit.json": agent.PreToolUse,
		"pre-tool-use-multiedit.json": agent.PreToolUse, "pre-tool-use-bash.json": agent.PreToolUse,
		"post-tool-use-write.json": agent.PostToolUse, "post-tool-use-bash.json": agent.PostToolUse, "stop.json": agent.Stop,
	} {
		p, err := DecodePayload(fixture(t, file, "/repo"), event)
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		if p.Cwd != "/repo" || p.SessionID != "abc123" {
			t.Errorf("%s: cwd %q session %q", file, p.Cwd, p.SessionID)
		}
		if event == agent.Stop && !p.StopHookActive {
			t.Errorf("%s: stop_hook_active not read", file)
		}
	}
}

func TestParsePayloadTooLarge(t *testing.T) {
	big := []byte(`{"tool_name":"Bash","tool_input":{"command":"` + strings.Repeat("x", agent.MaxPayload) + `"}}`)
	if _, err := DecodePayload(big, agent.PreToolUse); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("got %v, want a size error", err)
	}
}
