package claude

import (
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/agent"
)

func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"a","old_string":"x","new_string":"y"}}`,
		`{"tool_name":"MultiEdit","tool_input":{"file_path":"a","edits":[{"old_string":"x","new_string":"y"}]}}`,
		`{"tool_name":"NotebookEdit","tool_input":{"notebook_path":"n.ipynb","cell_id":"cell-0","new_source":"x","edit_mode":"insert"}}`,
		`{"tool_name":"Read","tool_input":{"file_path":"/etc/passwd"}}`,
		`{"tool_name":"Bash","tool_input":{"command":"ls"}}`,
		`{"stop_hook_active":true}`, `[]`, `{`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, ev := range agent.Events {
			c, err := Client{}.Decode(ev, data)
			if err == nil && c == nil {
				t.Fatal("nil call without an error")
			}
			if err != nil {
				continue
			}
			for _, ch := range c.Changes {
				if ch.Path == "" || ch.Apply == nil && !ch.Delete {
					t.Fatalf("change %+v: no path or no way to apply it", ch)
				}
				// Applying never panics, whatever the file holds.
				_, _ = ch.Apply(data, true)
				_, _ = ch.Apply(nil, false)
			}
		}
	})
}
