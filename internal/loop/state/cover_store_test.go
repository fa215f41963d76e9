package state

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

// TestCoverRegistry: Sync keeps active loops and counts finished ones;
// RebuildRegistry makes the registry anew from the loops' states, leaving
// out (and naming) a loop whose state does not load.
func TestCoverRegistry(t *testing.T) {
	t.Parallel()
	s := NewStore(t.TempDir())
	reg, err := s.ReadRegistry()
	if err != nil || len(reg.ActiveLoops) != 0 || reg.MaxConcurrentLoops != MaxConcurrentLoops || reg.RegistryPath != RalphDir+"/registry.json" {
		t.Fatalf("empty registry = %+v, %v", reg, err)
	}
	running := createLoop(t, s, "ralph-run-00000001", StatusRunning)
	paused := createLoop(t, s, "ralph-pause-00000002", StatusPaused)
	done := createLoop(t, s, "ralph-done-00000003", StatusCompleted)
	aborted := createLoop(t, s, "ralph-abort-00000004", StatusAborted)
	broken := createLoop(t, s, "ralph-broken-00000005", StatusRunning)
	for _, snap := range []*Snapshot{running, paused, done, aborted} {
		st := snap.State
		if err := s.UpdateRegistry(t0, func(r *Registry) error {
			if st.Status.Terminal() {
				// A finished loop was active before it finished.
				was := *st
				was.Status = StatusRunning
				r.Sync(&was, t0)
			}
			r.Sync(st, t0)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	reg, err = s.ReadRegistry()
	if err != nil {
		t.Fatal(err)
	}
	if len(reg.ActiveLoops) != 2 || reg.TotalActive != 2 || reg.TotalCompleted != 1 || reg.TotalAborted != 1 || len(reg.Finished) != 2 {
		t.Errorf("registry = %+v", reg)
	}
	// An update that fails writes nothing.
	if err := s.UpdateRegistry(t0, func(r *Registry) error { r.ActiveLoops = nil; return errors.New("no") }); err == nil {
		t.Error("UpdateRegistry ignored f's error")
	}
	// A second sync of an active loop updates its entry in place.
	running.State.Iteration = 3
	reg.Sync(running.State, t0.Add(time.Minute))
	if len(reg.ActiveLoops) != 2 || reg.ActiveLoops[0].Iteration != 3 || !reg.ActiveLoops[0].LastActive.Equal(t0.Add(time.Minute)) {
		t.Errorf("synced entry = %+v", reg.ActiveLoops[0])
	}

	if err := os.WriteFile(s.StatePath(broken.State.LoopID), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.Dir, "registry.json"), []byte("[not a registry"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReadRegistry(); err == nil || !strings.Contains(err.Error(), "is corrupt") {
		t.Errorf("corrupt registry: %v", err)
	}
	skipped, err := s.RebuildRegistry(t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(skipped) != 1 || skipped[0] != "ralph-broken-00000005" {
		t.Errorf("skipped = %v", skipped)
	}
	reg, err = s.ReadRegistry()
	if err != nil {
		t.Fatal(err)
	}
	var active []string
	for _, l := range reg.ActiveLoops {
		active = append(active, l.LoopID+"="+string(l.Status))
	}
	if strings.Join(active, " ") != "ralph-pause-00000002=paused ralph-run-00000001=running" || reg.TotalCompleted != 1 || reg.TotalAborted != 1 ||
		len(reg.Finished) != 2 || !reg.UpdatedAt.Equal(t0.Add(time.Hour)) {
		t.Errorf("rebuilt registry = %+v", reg)
	}
}

func TestCoverSummary(t *testing.T) {
	t.Parallel()
	if got := Summary("  a\n\tb  c "); got != "a b c" {
		t.Errorf("summary = %q", got)
	}
	long := strings.Repeat("é", 150) // 300 bytes
	got := Summary(long)
	if len(got) > 200 || !strings.HasSuffix(got, "...") || !strings.HasPrefix(got, "éé") || strings.ContainsRune(got, '\uFFFD') {
		t.Errorf("summary of a long task = %q (%d bytes)", got, len(got))
	}
	if !strings.HasPrefix(strings.TrimSuffix(got, "..."), strings.Repeat("é", 98)) {
		t.Errorf("summary cut a character: %q", got)
	}
}

// TestCoverSealedRegistry: a sealed registry changed outside ralph-gate is
// refused; a rebuild seals it again.
func TestCoverSealedRegistry(t *testing.T) {
	t.Parallel()
	s := NewStore(t.TempDir())
	s.Key = bytes.Repeat([]byte{7}, 32)
	createLoop(t, s, "ralph-sealed-00000001", StatusRunning)
	snap, err := s.Load("ralph-sealed-00000001")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateRegistry(t0, func(r *Registry) error { r.Sync(snap.State, t0); return nil }); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(s.Dir, "registry.json")
	data, err := os.ReadFile(path)
	if err != nil || !bytes.Contains(data, []byte(`"seal": "`)) {
		t.Fatalf("registry.json is not sealed: %v\n%s", err, data)
	}
	if _, err := s.ReadRegistry(); err != nil {
		t.Fatal(err)
	}
	var tampered *TamperedError
	if err := os.WriteFile(path, bytes.Replace(data, []byte(`"iteration": 0`), []byte(`"iteration": 9`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReadRegistry(); !errors.As(err, &tampered) || tampered.Why != "does not match its seal" {
		t.Errorf("changed registry: %v", err)
	}
	if err := os.WriteFile(path, bytes.Replace(data, []byte(`"seal"`), []byte(`"x"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReadRegistry(); !errors.As(err, &tampered) || tampered.Why != "carries no seal" {
		t.Errorf("unsealed registry: %v", err)
	}
	// An unsealed store reads it without checking.
	if _, err := NewStore(s.Root).ReadRegistry(); err != nil {
		t.Errorf("unsealed read: %v", err)
	}
	if skipped, err := s.RebuildRegistry(t0); err != nil || len(skipped) != 0 {
		t.Fatalf("rebuild: %v, %v", skipped, err)
	}
	if reg, err := s.ReadRegistry(); err != nil || len(reg.ActiveLoops) != 1 {
		t.Errorf("rebuilt registry: %+v, %v", reg, err)
	}
	// Someone else's key does not verify it.
	other := NewStore(s.Root)
	other.Key = bytes.Repeat([]byte{8}, 32)
	if _, err := other.ReadRegistry(); !errors.As(err, &tampered) {
		t.Errorf("another key: %v", err)
	}
}

// TestCoverSealedStateTampering: state.json without its seal, or a journal
// cut short, is refused.
func TestCoverSealedStateTampering(t *testing.T) {
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

// TestCoverLoadSealKey: a key file that is not a key is refused, with the
// way out in the message.
func TestCoverLoadSealKey(t *testing.T) {
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

// TestCoverStoreHelpers: the exclude file, the common git dir, loop ids.
func TestCoverStoreHelpers(t *testing.T) {
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

// TestCoverSealMarks: a sealed loop's files put back as they were earlier
// (sealed, but old) are refused, by the mark of the last journal entry
// kept in the seal directory; repair (Rebuild) resets the mark.
func TestCoverSealMarks(t *testing.T) {
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

// TestCoverStoreCheck: a loop saved by someone else since the snapshot was
// loaded is refused by Check.
func TestCoverStoreCheck(t *testing.T) {
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
