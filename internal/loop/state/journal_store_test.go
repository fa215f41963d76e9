package state

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestJournalRoundTrip(t *testing.T) {
	tests := []struct{ name, old, new string }{
		{"object key changed", `{"a":1,"b":{"c":2}}`, `{"a":1,"b":{"c":3}}`},
		{"array appended", `{"h":[1,2]}`, `{"h":[1,2,3,4]}`},
		{"array changed", `{"h":[1,2]}`, `{"h":[1,5,3]}`},
		{"key removed", `{"a":1,"b":2}`, `{"a":1}`},
		{"key added", `{"a":1}`, `{"a":1,"z":{"y":[1]}}`},
		{"from nothing", `null`, `{"a":[1]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ops, err := diff(nil, json.RawMessage(tt.old), json.RawMessage(tt.new))
			if err != nil {
				t.Fatal(err)
			}
			got, err := apply(json.RawMessage(tt.old), ops)
			if err != nil {
				t.Fatal(err)
			}
			var a, b any
			_ = json.Unmarshal(got, &a)
			_ = json.Unmarshal([]byte(tt.new), &b)
			if diff := cmp.Diff(b, a); diff != "" {
				t.Errorf("apply(diff) (-want +got):\n%s", diff)
			}
		})
	}
	ops, _ := diff(nil, json.RawMessage(`{"h":[1,2]}`), json.RawMessage(`{"h":[1,2,3]}`))
	if len(ops) != 1 || len(ops[0].Append) != 1 {
		t.Errorf("a grown array should be one append, got %+v", ops)
	}
}

func newTestStore(t *testing.T) (*Store, *Snapshot) {
	t.Helper()
	s := NewStore(t.TempDir())
	st := &State{Version: StateVersion, LoopID: "ralph-test-0a1b2c3d", Status: StatusRunning, Task: "t",
		IterationHistory: []Iteration{}, RalphGate: Extra{Settings: Defaults()}}
	snap, err := s.Create(st, time.Unix(0, 0).UTC())
	if err != nil {
		t.Fatal(err)
	}
	return s, snap
}

func TestStoreReplaysALostWrite(t *testing.T) {
	s, snap := newTestStore(t)
	id := snap.State.LoopID
	before, _ := os.ReadFile(s.StatePath(id))
	snap.State.Iteration = 1
	snap.State.IterationHistory = append(snap.State.IterationHistory, Iteration{Iteration: 1, QualityScore: 42})
	if err := s.Save(snap, "record", time.Unix(1, 0)); err != nil {
		t.Fatal(err)
	}
	// The kill came after the journal entry and before state.json's rename.
	if err := os.WriteFile(s.StatePath(id), before, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if got.Replayed != 1 || got.State.Iteration != 1 || len(got.State.IterationHistory) != 1 || got.State.IterationHistory[0].QualityScore != 42 {
		t.Errorf("replayed state: replayed %d, iteration %d, history %+v", got.Replayed, got.State.Iteration, got.State.IterationHistory)
	}
	// Saving again continues the journal's sequence.
	got.State.Iteration = 2
	if err := s.Save(got, "record", time.Unix(2, 0)); err != nil {
		t.Fatal(err)
	}
	entries, _, err := readJournal(filepath.Join(s.LoopDir(id), journalName))
	if err != nil || len(entries) != 3 {
		t.Fatalf("journal: %d entries, %v", len(entries), err)
	}
}

func TestJournalTornLine(t *testing.T) {
	s, snap := newTestStore(t)
	id := snap.State.LoopID
	path := filepath.Join(s.LoopDir(id), journalName)
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"seq":2,"op":"record","ops":[{"path":["iter`) // torn by a kill
	f.Close()
	snap.State.Iteration = 5
	if err := s.Save(snap, "record", time.Unix(3, 0)); err != nil {
		t.Fatal(err)
	}
	entries, torn, err := readJournal(path)
	if err != nil || torn != 1 || len(entries) != 2 || entries[1].Seq != 2 {
		t.Fatalf("entries %d, torn %d, err %v", len(entries), torn, err)
	}
	if got, err := s.Load(id); err != nil || got.State.Iteration != 5 {
		t.Errorf("load after a torn line: %v", err)
	}
	// A gap in the sequence is damage, not a torn write.
	os.WriteFile(path, []byte(`{"seq":1,"ops":[]}`+"\n"+`{"seq":3,"ops":[]}`+"\n"), 0o644)
	if _, _, err := readJournal(path); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("a seq gap: %v", err)
	}
}

func TestStoreCorruptStateAndRebuild(t *testing.T) {
	s, snap := newTestStore(t)
	id := snap.State.LoopID
	snap.State.Iteration = 3
	snap.State.Status = StatusPaused
	if err := s.Save(snap, "pause", time.Unix(4, 0)); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(s.StatePath(id), []byte("{garbage"), 0o644)
	_, err := s.Load(id)
	var corrupt *CorruptError
	if !errors.As(err, &corrupt) || !strings.Contains(err.Error(), "ralph-gate repair --loop "+id) {
		t.Fatalf("load of a corrupt state: %v", err)
	}
	if data, _ := os.ReadFile(s.StatePath(id)); string(data) != "{garbage" {
		t.Error("the corrupt state.json was overwritten")
	}
	got, kept, err := s.Rebuild(id, time.Unix(5, 0))
	if err != nil || got.State.Iteration != 3 || got.State.Status != StatusPaused {
		t.Fatalf("rebuild: %v %+v", err, got)
	}
	if data, _ := os.ReadFile(kept); string(data) != "{garbage" {
		t.Errorf("the damaged file was not kept at %s", kept)
	}
	if _, err := s.Load(id); err != nil {
		t.Errorf("load after rebuild: %v", err)
	}
}

// FuzzJournalReplay feeds arbitrary journal files to the reader and the
// patcher: they may reject them, never panic.
func FuzzJournalReplay(f *testing.F) {
	f.Add([]byte(`{"seq":1,"op":"start","ops":[{"set":{"a":1}}]}` + "\n" + `{"seq":2,"op":"record","ops":[{"path":["h"],"append":[1,2]}]}` + "\n"))
	f.Add([]byte(`{"seq":1,"ops":[{"path":["a","b"],"set":[1]}]}` + "\n" + `{"seq":2,"ops":[{"path":["a","b"],"append":[{}]}]}`))
	f.Add([]byte(`{"seq":1,"ops":[{"path":["a"],"append":[1]}]}` + "\n{\"seq\":2,\"op"))
	f.Add([]byte("\n\n{}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		path := filepath.Join(dir, journalName)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		entries, _, err := readJournal(path)
		if err != nil {
			return
		}
		var doc json.RawMessage
		for _, e := range entries {
			if doc, err = apply(doc, e.Ops); err != nil {
				return
			}
		}
		var st State
		_ = json.Unmarshal(doc, &st)
	})
}

// TestFlushWritesReplayedState: a process killed between its journal entry
// and state.json leaves state.json behind; the next locked load replays the
// entry and Flush writes state.json, sealed, so readers of the file (AIWG
// tools) see the loop as it is.
func TestFlushWritesReplayedState(t *testing.T) {
	s := NewStore(t.TempDir())
	s.Key = []byte("0123456789abcdef0123456789abcdef")
	snap, err := s.Create(&State{Version: StateVersion, LoopID: "ralph-test-0a1b2c3d", Status: StatusRunning, Task: "t",
		IterationHistory: []Iteration{}, RalphGate: Extra{Settings: Defaults()}}, time.Unix(0, 0).UTC())
	if err != nil {
		t.Fatal(err)
	}
	path := s.StatePath(snap.State.LoopID)
	old, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	snap.State.Iteration = 7
	if err := s.Save(snap, "record", time.Unix(2, 0).UTC()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, old, 0o644); err != nil { // the lost write
		t.Fatal(err)
	}
	got, err := s.Load(snap.State.LoopID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Replayed != 1 || got.State.Iteration != 7 {
		t.Fatalf("load: replayed %d, iteration %d", got.Replayed, got.State.Iteration)
	}
	if err := s.Flush(got); err != nil {
		t.Fatal(err)
	}
	again, err := s.Load(snap.State.LoopID)
	if err != nil {
		t.Fatalf("state.json written by Flush does not load: %v", err)
	}
	if again.Replayed != 0 || again.State.Iteration != 7 {
		t.Errorf("after flush: replayed %d, iteration %d", again.Replayed, again.State.Iteration)
	}
}
