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

// TestRegistry: Sync keeps active loops and counts finished ones;
// RebuildRegistry makes the registry anew from the loops' states, leaving
// out (and naming) a loop whose state does not load.
func TestRegistry(t *testing.T) {
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

func TestSummary(t *testing.T) {
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

// TestSealedRegistry: a sealed registry changed outside ralph-gate is
// refused; a rebuild seals it again.
func TestSealedRegistry(t *testing.T) {
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
