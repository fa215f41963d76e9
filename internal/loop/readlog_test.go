package loop

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
)

// ReadLog reads hook-log.jsonl's entries, for the tests.
func (s *Store) ReadLog(id string) ([]map[string]any, error) {
	data, err := os.ReadFile(filepath.Join(s.LoopDir(id), hookLogName))
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
