package guard

import (
	"strings"
	"testing"
)

func TestDecodePayload(t *testing.T) {
	tests := []struct {
		name, in string
		event    Event
		err      string
	}{
		{name: "write", event: PreToolUse, in: `{"hook_event_name":"PreToolUse","cwd":"/r","tool_name":"Write","tool_input":{"file_path":"/r/a.go","content":""}}`},
		{name: "unknown tool", event: PreToolUse, in: `{"tool_name":"WebFetch","tool_input":{"url":"x"}}`},
		{name: "stop", event: Stop, in: `{"hook_event_name":"Stop","stop_hook_active":true}`},
		{name: "extra fields", event: PostToolUse, in: `{"tool_name":"Bash","tool_input":{"command":"ls","run_in_background":false},"tool_response":{"stdout":"x"},"new_field":[1,2]}`},
		{name: "empty", event: PreToolUse, in: "  \n", err: "hook input is empty"},
		{name: "array", event: PreToolUse, in: `[]`, err: "not a JSON object"},
		{name: "broken", event: PreToolUse, in: `{"tool_name":`, err: "hook input: unexpected EOF"},
		{name: "two values", event: PreToolUse, in: `{"tool_name":"Bash","tool_input":{"command":"ls"}} {}`, err: "more than one JSON value"},
		{name: "wrong event", event: PreToolUse, in: `{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`, err: `is a "PostToolUse" event, not PreToolUse`},
		{name: "no tool", event: PreToolUse, in: `{"hook_event_name":"PreToolUse"}`, err: "no tool_name"},
		{name: "no input", event: PreToolUse, in: `{"tool_name":"Edit"}`, err: "tool_input of Edit is not a JSON object"},
		{name: "no file", event: PreToolUse, in: `{"tool_name":"Write","tool_input":{"content":"x"}}`, err: "has no file_path"},
		{name: "no content", event: PreToolUse, in: `{"tool_name":"Write","tool_input":{"file_path":"a"}}`, err: "has no content"},
		{name: "wrong type", event: PreToolUse, in: `{"tool_name":"Edit","tool_input":{"file_path":1}}`, err: "tool_input of Edit: json: cannot unmarshal"},
		{name: "no edits", event: PreToolUse, in: `{"tool_name":"MultiEdit","tool_input":{"file_path":"a","edits":[]}}`, err: "has no edits"},
		{name: "edit without strings", event: PreToolUse, in: `{"tool_name":"MultiEdit","tool_input":{"file_path":"a","edits":[{"old_string":"x"}]}}`, err: "edits[0]"},
		{name: "no command", event: PreToolUse, in: `{"tool_name":"Bash","tool_input":{}}`, err: "has no command"},
		{name: "stop_hook_active not bool", event: Stop, in: `{"stop_hook_active":"yes"}`, err: "cannot unmarshal"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParsePayload(strings.NewReader(tc.in), tc.event)
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
	for file, event := range map[string]Event{
		"pre-tool-use-write.json": PreToolUse, "pre-tool-use-edit.json": PreToolUse,
		"pre-tool-use-multiedit.json": PreToolUse, "pre-tool-use-bash.json": PreToolUse,
		"post-tool-use-write.json": PostToolUse, "post-tool-use-bash.json": PostToolUse, "stop.json": Stop,
	} {
		p, err := DecodePayload(fixture(t, file, "/repo"), event)
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		if p.Cwd != "/repo" || p.SessionID != "abc123" {
			t.Errorf("%s: cwd %q session %q", file, p.Cwd, p.SessionID)
		}
		if event == Stop && !p.StopHookActive {
			t.Errorf("%s: stop_hook_active not read", file)
		}
	}
}

func TestParsePayloadTooLarge(t *testing.T) {
	big := strings.NewReader(`{"tool_name":"Bash","tool_input":{"command":"` + strings.Repeat("x", MaxPayload) + `"}}`)
	if _, err := ParsePayload(big, PreToolUse); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("got %v, want a size error", err)
	}
}
