package claude

import (
	"bytes"

	"github.com/ralph-gate/ralph-gate/internal/agent"
)

// ApplyEdits applies Edit replacements in order, as Claude Code's Edit and
// MultiEdit do: each old_string must occur exactly once unless replace_all is
// set, must differ from new_string, and an empty old_string creates a file
// that does not exist yet. Any edit that fails fails them all
// (agent.ErrNoChange).
func ApplyEdits(cur []byte, existed bool, edits []EditInput) ([]byte, error) {
	out := cur
	for i, e := range edits {
		old, repl := []byte(*e.OldString), []byte(*e.NewString)
		if bytes.Equal(old, repl) {
			return nil, agent.ErrNoChange
		}
		if len(old) == 0 {
			if i == 0 && (!existed || len(out) == 0) {
				out = append([]byte(nil), repl...)
				existed = true
				continue
			}
			return nil, agent.ErrNoChange
		}
		n := bytes.Count(out, old)
		if n == 0 || (n > 1 && !e.ReplaceAll) {
			return nil, agent.ErrNoChange
		}
		out = bytes.ReplaceAll(out, old, repl)
	}
	return out, nil
}
