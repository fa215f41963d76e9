package state

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// createLoop writes a loop's state as start does, with the given status.
func createLoop(t *testing.T, s *Store, id string, status Status) *Snapshot {
	t.Helper()
	st := &State{Version: StateVersion, LoopID: id, Status: status, Task: "task of " + id, StartedAt: t0, LastUpdated: t0,
		Configuration: Configuration{MaxIterations: 5}, IterationHistory: []Iteration{}, RalphGate: Extra{Settings: Defaults()}}
	snap, err := s.Create(st, t0)
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// TestStoreHelpers: the exclude file, the common git dir, loop ids.
func TestStoreHelpers(t *testing.T) {
	t.Parallel()
	gitDir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(gitDir, "info"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(gitDir, "info", "exclude"), []byte("*.log"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if err := Exclude(gitDir); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := os.ReadFile(filepath.Join(gitDir, "info", "exclude"))
	if string(data) != "*.log\n# ralph-gate loop state\n/.aiwg/ralph/\n" {
		t.Errorf("exclude = %q", data)
	}
	wt := filepath.Join(gitDir, "worktrees", "w")
	if err := os.MkdirAll(wt, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(wt, "commondir"), []byte("../..\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := CommonGitDir(wt); got != filepath.Clean(gitDir) {
		t.Errorf("CommonGitDir(linked) = %s, want %s", got, gitDir)
	}
	abs := t.TempDir()
	if err := os.WriteFile(filepath.Join(wt, "commondir"), []byte(abs), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := CommonGitDir(wt); got != abs {
		t.Errorf("CommonGitDir(absolute) = %s", got)
	}
	if got := CommonGitDir(gitDir); got != gitDir {
		t.Errorf("CommonGitDir(main) = %s", got)
	}
	if got := Slug("!!!"); got != "loop" {
		t.Errorf("Slug(!!!) = %q", got)
	}
	if got := Slug(strings.Repeat("abcdefghij", 4) + " next"); got != strings.Repeat("abcdefghij", 4)[:32] {
		t.Errorf("Slug(one long word) = %q", got)
	}
	if u := NewUUID(); len(u) != 36 || u[14] != '4' || strings.Count(u, "-") != 4 {
		t.Errorf("NewUUID = %q", u)
	}
	if ids, err := NewStore(t.TempDir()).Loops(); err != nil || ids != nil {
		t.Errorf("Loops of an empty store = %v, %v", ids, err)
	}
	ce := &CorruptError{Path: "/x/loops/ralph-a-00000000/state.json", Err: errors.New("bad")}
	if !strings.Contains(ce.Error(), "repair --loop ralph-a-00000000") || !errors.Is(ce, ce.Err) {
		t.Errorf("CorruptError = %q", ce.Error())
	}
	le := &LockedError{Loop: "L", Holder: lockInfo{PID: 12, Op: "record", Since: t0}}
	if !errors.Is(le, ErrLocked) || !strings.Contains(le.Error(), "ralph-gate record (pid 12, since 2025-03-04T10:00:00Z)") {
		t.Errorf("LockedError = %q", le.Error())
	}
	if !strings.Contains((&LockedError{Loop: "L"}).Error(), "another ralph-gate") {
		t.Error("LockedError without a holder")
	}
}

// TestStoreCheck: a loop saved by someone else since the snapshot was
// loaded is refused by Check.
func TestStoreCheck(t *testing.T) {
	t.Parallel()
	s := NewStore(t.TempDir())
	id := "ralph-check-00000001"
	mine := createLoop(t, s, id, StatusRunning)
	if err := s.Check(mine); err != nil {
		t.Fatalf("untouched: %v", err)
	}
	theirs, err := s.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	theirs.State.Status = StatusCompleted
	if err := s.Save(theirs, "forged", t0); err != nil {
		t.Fatal(err)
	}
	var tampered *TamperedError
	if err := s.Check(mine); !errors.As(err, &tampered) || !strings.Contains(tampered.Why, "is at journal entry 2, not 1") {
		t.Errorf("saved behind the snapshot's back: %v", err)
	}
	if err := os.Remove(s.StatePath(id)); err != nil {
		t.Fatal(err)
	}
	if err := s.Check(mine); !errors.Is(err, ErrNotFound) {
		t.Errorf("state.json gone: %v", err)
	}
}
