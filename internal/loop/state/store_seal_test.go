package state

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSealedStateTampering: state.json without its seal, or a journal
// cut short, is refused.
func TestSealedStateTampering(t *testing.T) {
	t.Parallel()
	s := NewStore(t.TempDir())
	s.Key = bytes.Repeat([]byte{1}, 32)
	id := "ralph-tamper-00000001"
	snap := createLoop(t, s, id, StatusRunning)
	snap.State.Iteration = 1
	if err := s.Save(snap, "record", t0); err != nil {
		t.Fatal(err)
	}
	statePath := s.StatePath(id)
	good, _ := os.ReadFile(statePath)
	var tampered *TamperedError
	unsealed := bytes.Replace(good, []byte(`"seal": "`), []byte(`"seal": "x`), 1)
	if err := os.WriteFile(statePath, unsealed, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load(id); !errors.As(err, &tampered) || !strings.Contains(err.Error(), "does not match its seal") || !strings.Contains(err.Error(), "repair") {
		t.Errorf("changed seal: %v", err)
	}
	plain := NewStore(s.Root) // what state.json written without a key looks like
	plainState := plain.sealState(snap.State)
	if err := os.WriteFile(statePath, plainState, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load(id); !errors.As(err, &tampered) || tampered.Why != "carries no seal" {
		t.Errorf("no seal: %v", err)
	}
	if err := os.WriteFile(statePath, good, 0o644); err != nil {
		t.Fatal(err)
	}
	jpath := filepath.Join(s.LoopDir(id), journalName)
	journal, _ := os.ReadFile(jpath)
	first := journal[:bytes.IndexByte(journal, '\n')+1]
	if err := os.WriteFile(jpath, first, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load(id); !errors.As(err, &tampered) || !strings.Contains(tampered.Why, "ends before entry 2") {
		t.Errorf("journal cut short: %v", err)
	}
	if err := os.WriteFile(jpath, journal, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Load(id); err != nil || got.State.Iteration != 1 {
		t.Errorf("restored files: %v", err)
	}
	// Ids that are not loop ids are not found.
	if _, err := s.Load("../etc"); !errors.Is(err, ErrNotFound) {
		t.Errorf("bad id: %v", err)
	}
	if _, err := s.Load("ralph-missing-00000000"); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing loop: %v", err)
	}
	if _, err := s.Create(snap.State, t0); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("create twice: %v", err)
	}
}

// TestLoadSealKey: a key file that is not a key is refused, with the
// way out in the message.
func TestLoadSealKey(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "config", "ralph-gate")
	key, err := LoadSealKey(dir)
	if err != nil || len(key) != 32 {
		t.Fatalf("new key: %d bytes, %v", len(key), err)
	}
	again, err := LoadSealKey(dir)
	if err != nil || !bytes.Equal(key, again) {
		t.Errorf("second load gave another key: %v", err)
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("key directory mode: %v, %v", fi.Mode(), err)
	}
	for _, bad := range []string{"not hex\n", "abcd\n"} {
		if err := os.WriteFile(filepath.Join(dir, SealKeyName), []byte(bad), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadSealKey(dir); err == nil || !strings.Contains(err.Error(), "remove it to make a new one") {
			t.Errorf("key %q: %v", bad, err)
		}
	}
	// A file where the directory should be.
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadSealKey(filepath.Join(file, "sub")); err == nil {
		t.Error("LoadSealKey under a file: no error")
	}
}

// TestSealMarks: a sealed loop's files put back as they were earlier
// (sealed, but old) are refused, by the mark of the last journal entry
// kept in the seal directory; repair (Rebuild) resets the mark.
func TestSealMarks(t *testing.T) {
	t.Parallel()
	s := NewStore(t.TempDir())
	s.Key = bytes.Repeat([]byte{3}, 32)
	s.SealDir = t.TempDir()
	id := "ralph-marks-00000001"
	snap := createLoop(t, s, id, StatusRunning)
	snap.State.Iteration = 1
	if err := s.Save(snap, "record", t0); err != nil {
		t.Fatal(err)
	}
	statePath, jpath := s.StatePath(id), filepath.Join(s.LoopDir(id), journalName)
	oldState, _ := os.ReadFile(statePath)
	oldJournal, _ := os.ReadFile(jpath)
	snap.State.Iteration = 2
	if err := s.Save(snap, "record", t0); err != nil {
		t.Fatal(err)
	}
	markPath := filepath.Join(s.SealDir, "loops", id+".mark")
	mark, err := os.ReadFile(markPath)
	if err != nil || !bytes.Contains(mark, []byte(`"seq":3`)) {
		t.Fatalf("mark = %s, %v", mark, err)
	}
	// Put back.
	for p, data := range map[string][]byte{statePath: oldState, jpath: oldJournal} {
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var tampered *TamperedError
	if _, err := s.Load(id); !errors.As(err, &tampered) || !strings.Contains(tampered.Why, "ends at entry 2, but ralph-gate wrote up to entry 3") {
		t.Fatalf("files put back: %v", err)
	}
	// A mark of an entry the journal holds differently.
	if err := os.WriteFile(markPath, []byte(`{"seq":2,"mac":"00"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load(id); !errors.As(err, &tampered) || !strings.Contains(tampered.Why, "holds an entry 2 that is not the one ralph-gate wrote") {
		t.Errorf("another entry 2: %v", err)
	}
	if err := os.WriteFile(markPath, []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load(id); err == nil || !strings.Contains(err.Error(), "is not one ralph-gate wrote") {
		t.Errorf("a broken mark: %v", err)
	}
	// Without a mark (a loop sealed before marks) the files are taken.
	if err := os.Remove(markPath); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Load(id); err != nil || got.State.Iteration != 1 {
		t.Errorf("no mark: %v", err)
	}
	// A person's repair accepts the files as they are and marks them.
	if err := os.WriteFile(markPath, mark, 0o600); err != nil {
		t.Fatal(err)
	}
	rebuilt, kept, err := s.Rebuild(id, t0)
	if err != nil || rebuilt.State.Iteration != 1 || kept == "" {
		t.Fatalf("rebuild: %+v, %q, %v", rebuilt, kept, err)
	}
	if got, err := s.Load(id); err != nil || got.State.Iteration != 1 {
		t.Errorf("after the rebuild: %v", err)
	}
}
