package state

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"time"
)

// The journal is an append-only JSONL file beside state.json. Every change to
// a loop's state is first appended (and synced) to it as a patch, and only
// then is state.json replaced. A kill at any moment therefore leaves either a
// state.json that already has the change, or one that lacks it and a journal
// entry that Load replays; a torn last line of the journal was never applied
// anywhere and is ignored. The first entry sets the whole state, so the
// journal alone can rebuild a state.json that was damaged (Rebuild).

// journalEntry is one line of journal.jsonl.
type journalEntry struct {
	Seq int       `json:"seq"`
	At  time.Time `json:"at"`
	// Op names what changed: start, record, pause, resume, abort, approve,
	// reject, migrate, repair.
	Op  string    `json:"op"`
	Ops []patchOp `json:"ops"`
	// MAC seals the entry, chained to the entry before it (seal.go).
	MAC string `json:"mac,omitempty"`
}

// patchOp sets or appends to the value at Path (object keys from the root).
type patchOp struct {
	Path   []string          `json:"path"`
	Set    json.RawMessage   `json:"set,omitempty"`
	Append []json.RawMessage `json:"append,omitempty"`
}

// diff returns the operations that turn old into new. Objects are compared
// key by key, arrays that only grew become appends, anything else is set.
func diff(path []string, old, new json.RawMessage) ([]patchOp, error) {
	if bytes.Equal(old, new) {
		return nil, nil
	}
	var om, nm map[string]json.RawMessage
	if json.Unmarshal(old, &om) == nil && json.Unmarshal(new, &nm) == nil && om != nil && nm != nil {
		var ops []patchOp
		for _, k := range sortedKeys(nm) {
			sub, err := diff(append(append([]string(nil), path...), k), om[k], nm[k])
			if err != nil {
				return nil, err
			}
			ops = append(ops, sub...)
		}
		for k := range om {
			if _, ok := nm[k]; !ok {
				// A removed key: set the parent wholesale.
				return []patchOp{{Path: path, Set: new}}, nil
			}
		}
		return ops, nil
	}
	var oa, na []json.RawMessage
	if json.Unmarshal(old, &oa) == nil && json.Unmarshal(new, &na) == nil && oa != nil && len(na) > len(oa) {
		prefix := true
		for i := range oa {
			if !bytes.Equal(oa[i], na[i]) {
				prefix = false
				break
			}
		}
		if prefix {
			return []patchOp{{Path: path, Append: na[len(oa):]}}, nil
		}
	}
	return []patchOp{{Path: path, Set: new}}, nil
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	// Stable order keeps journal lines deterministic.
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

// apply applies ops to doc (a JSON document) and returns the new document.
func apply(doc json.RawMessage, ops []patchOp) (json.RawMessage, error) {
	for _, op := range ops {
		var err error
		if doc, err = applyAt(doc, op.Path, op); err != nil {
			return nil, err
		}
	}
	return doc, nil
}

func applyAt(doc json.RawMessage, path []string, op patchOp) (json.RawMessage, error) {
	if len(path) == 0 {
		if op.Set != nil {
			return op.Set, nil
		}
		var arr []json.RawMessage
		if len(doc) > 0 && string(doc) != "null" {
			if err := json.Unmarshal(doc, &arr); err != nil {
				return nil, fmt.Errorf("append to a value that is not an array")
			}
		}
		return json.Marshal(append(arr, op.Append...))
	}
	m := map[string]json.RawMessage{}
	if len(doc) > 0 && string(doc) != "null" {
		if err := json.Unmarshal(doc, &m); err != nil {
			return nil, fmt.Errorf("patch %v: not an object", path)
		}
	}
	sub, err := applyAt(m[path[0]], path[1:], op)
	if err != nil {
		return nil, err
	}
	m[path[0]] = sub
	return json.Marshal(m)
}

// readJournal reads the journal's entries. A line that does not parse is a
// write torn by a kill: its change was never applied to state.json (which is
// written after the journal), so it is skipped and counted in torn. Entries
// must follow each other by seq.
func readJournal(path string) (entries []journalEntry, torn int, err error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 256<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var e journalEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Seq == 0 {
			torn++
			continue
		}
		if n := len(entries); n > 0 && e.Seq != entries[n-1].Seq+1 {
			return nil, torn, fmt.Errorf("%s: entry %d follows entry %d: the journal is damaged", path, e.Seq, entries[n-1].Seq)
		}
		entries = append(entries, e)
	}
	if err := sc.Err(); err != nil {
		return nil, torn, fmt.Errorf("read %s: %w", path, err)
	}
	return entries, torn, nil
}

// appendJournal appends e and syncs the file.
func appendJournal(path string, e journalEntry) error {
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	// A torn line left by an earlier kill must not swallow this one.
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
		if last, err := lastByte(path, fi.Size()); err == nil && last != '\n' {
			line = append([]byte{'\n'}, line...)
		}
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func lastByte(path string, size int64) (byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	b := make([]byte, 1)
	if _, err := f.ReadAt(b, size-1); err != nil {
		return 0, err
	}
	return b[0], nil
}
