package state

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// newSealedStore is newTestStore with a seal key, the loop saved twice.
func newSealedStore(t *testing.T) (*Store, *Snapshot) {
	t.Helper()
	key, err := LoadSealKey(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := NewStore(t.TempDir())
	s.Key = key
	st := &State{Version: StateVersion, LoopID: "ralph-seal-0a1b2c3d", Status: StatusRunning, Task: "t",
		IterationHistory: []Iteration{}, RalphGate: Extra{Settings: Defaults()}}
	snap, err := s.Create(st, time.Unix(0, 0).UTC())
	if err != nil {
		t.Fatal(err)
	}
	snap.State.Iteration = 1
	snap.State.IterationHistory = append(snap.State.IterationHistory, Iteration{Iteration: 1, QualityScore: 42.5, Timestamp: time.Unix(5, 7)})
	if err := s.Save(snap, "record", time.Unix(1, 0).UTC()); err != nil {
		t.Fatal(err)
	}
	return s, snap
}

func TestLoadSealKeyConcurrentFirstUse(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "config", "ralph-gate")
	keys := make([][]byte, 8)
	var wg sync.WaitGroup
	for i := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k, err := LoadSealKey(dir)
			if err != nil {
				t.Error(err)
			}
			keys[i] = k
		}()
	}
	wg.Wait()
	for _, k := range keys[1:] {
		if !bytes.Equal(k, keys[0]) || len(k) != 32 {
			t.Fatalf("first uses disagree on the key: %x vs %x", k, keys[0])
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, SealKeyName)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("key file: %v, mode %v", err, fi.Mode())
	}
	if err := os.WriteFile(filepath.Join(dir, SealKeyName), []byte("not hex\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadSealKey(dir); err == nil || !strings.Contains(err.Error(), "not a key") {
		t.Errorf("a damaged key: %v", err)
	}
}

func TestSealedStoreRoundTripAndTamper(t *testing.T) {
	s, snap := newSealedStore(t)
	id := snap.State.LoopID
	got, err := s.Load(id)
	if err != nil {
		t.Fatalf("a sealed loop does not load: %v", err)
	}
	if got.State.IterationHistory[0].QualityScore != 42.5 || got.State.RalphGate.Seal == "" {
		t.Errorf("loaded %+v", got.State.RalphGate)
	}
	// The same files under another key do not verify.
	other := NewStore(s.Root)
	other.Key = bytes.Repeat([]byte{1}, 32)
	var tampered *TamperedError
	if _, err := other.Load(id); !errors.As(err, &tampered) {
		t.Errorf("another key: %v", err)
	}
	// A lost state write (killed between the journal and state.json) is
	// still replayed from the sealed journal.
	before, _ := os.ReadFile(s.StatePath(id))
	got.State.Iteration = 2
	if err := s.Save(got, "record", time.Unix(2, 0).UTC()); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(s.StatePath(id), before, 0o644)
	if re, err := s.Load(id); err != nil || re.Replayed != 1 || re.State.Iteration != 2 {
		t.Fatalf("replay of a sealed journal: %v %+v", err, re)
	}
	// One byte of state.json changed.
	data, _ := os.ReadFile(s.StatePath(id))
	os.WriteFile(s.StatePath(id), bytes.Replace(data, []byte(`"quality_score": 42.5`), []byte(`"quality_score": 92.5`), 1), 0o644)
	if _, err := s.Load(id); !errors.As(err, &tampered) || !strings.Contains(err.Error(), "state.json does not match its seal") {
		t.Errorf("edited state: %v", err)
	}
	os.WriteFile(s.StatePath(id), data, 0o644)
	// Two journal entries swapped: refused (by the sequence or the chain).
	jpath := filepath.Join(s.LoopDir(id), journalName)
	journal, _ := os.ReadFile(jpath)
	lines := strings.SplitAfter(string(journal), "\n")
	lines[1], lines[2] = lines[2], lines[1]
	os.WriteFile(jpath, []byte(strings.Join(lines, "")), 0o644)
	if _, err := s.Load(id); err == nil {
		t.Errorf("reordered journal loaded")
	}
	// An entry's seal taken from another entry: the chain breaks.
	lines[1], lines[2] = lines[2], lines[1]
	mac := func(l string) string { return l[strings.Index(l, `"mac":"`):] }
	lines[2] = strings.Replace(lines[2], mac(lines[2]), mac(lines[1]), 1)
	os.WriteFile(jpath, []byte(strings.Join(lines, "")), 0o644)
	if _, err := s.Load(id); !errors.As(err, &tampered) {
		t.Errorf("a borrowed seal: %v", err)
	}
}

func TestRebuildKeepsTheVerifiedJournal(t *testing.T) {
	s, snap := newSealedStore(t)
	id := snap.State.LoopID
	jpath := filepath.Join(s.LoopDir(id), journalName)
	journal, _ := os.ReadFile(jpath)
	// The last entry forged: repair replays the first only.
	forged := bytes.Replace(journal, []byte(`42.5`), []byte(`99.5`), 1)
	os.WriteFile(jpath, forged, 0o644)
	re, kept, err := s.Rebuild(id, time.Unix(9, 0))
	if err != nil {
		t.Fatal(err)
	}
	if re.Dropped != 1 || re.State.Iteration != 0 || kept == "" {
		t.Errorf("rebuilt: dropped %d, iteration %d, kept %q", re.Dropped, re.State.Iteration, kept)
	}
	if _, err := s.Load(id); err != nil {
		t.Errorf("the rebuilt loop does not load: %v", err)
	}

	// A journal from before sealing is taken as it is by repair, and sealed.
	legacy := NewStore(t.TempDir())
	st := &State{Version: StateVersion, LoopID: "ralph-old-0a1b2c3d", Status: StatusRunning, Task: "t",
		IterationHistory: []Iteration{}, RalphGate: Extra{Settings: Defaults()}}
	if _, err := legacy.Create(st, time.Unix(0, 0).UTC()); err != nil {
		t.Fatal(err)
	}
	legacy.Key = s.Key
	var tampered *TamperedError
	if _, err := legacy.Load(st.LoopID); !errors.As(err, &tampered) || !strings.Contains(err.Error(), "carries no seal") {
		t.Errorf("an unsealed loop under a key: %v", err)
	}
	if _, _, err := legacy.Rebuild(st.LoopID, time.Unix(9, 0)); err != nil {
		t.Fatal(err)
	}
	if _, err := legacy.Load(st.LoopID); err != nil {
		t.Errorf("a repaired legacy loop does not load: %v", err)
	}
}
