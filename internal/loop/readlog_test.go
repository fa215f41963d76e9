package loop

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// readLog reads hook-log.jsonl's entries, for the tests.
func readLog(s *state.Store, id string) ([]map[string]any, error) {
	data, err := os.ReadFile(filepath.Join(s.LoopDir(id), "hook-log.jsonl"))
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	for dec.More() {
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			return out, err
		}
		out = append(out, m)
	}
	return out, nil
}
