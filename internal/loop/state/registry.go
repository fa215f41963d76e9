package state

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// MaxConcurrentLoops is the registry schemas' limit (REF-086).
const MaxConcurrentLoops = 4

// Registry is registry.json. It satisfies both of AIWG's registry schemas
// (loop-registry.yaml and multi-loop-registry.yaml): active_loops holds the
// loops that are running, paused or completing; finished loops leave it and
// are counted.
type Registry struct {
	Version            string       `json:"version"`
	MaxConcurrentLoops int          `json:"max_concurrent_loops"`
	ActiveLoops        []RegEntry   `json:"active_loops"`
	RegistryPath       string       `json:"registry_path"`
	LastUpdated        time.Time    `json:"last_updated"`
	UpdatedAt          time.Time    `json:"updated_at"`
	TotalActive        int          `json:"total_active"`
	TotalCompleted     int          `json:"total_completed"`
	TotalAborted       int          `json:"total_aborted"`
	Finished           []RegFinshed `json:"finished_loops,omitempty"`
	// Seal is the registry's HMAC (see seal.go).
	Seal string `json:"seal,omitempty"`
}

// RegEntry is one active loop.
type RegEntry struct {
	LoopID             string    `json:"loop_id"`
	Status             Status    `json:"status"`
	Iteration          int       `json:"iteration"`
	Task               string    `json:"task"`
	TaskSummary        string    `json:"task_summary"`
	CompletionCriteria string    `json:"completion_criteria"`
	StartedAt          time.Time `json:"started_at"`
	LastActive         time.Time `json:"last_active"`
	PID                *int      `json:"pid"`
	Owner              string    `json:"owner"`
	WorkingDirectory   string    `json:"working_directory"`
	StateFile          string    `json:"state_file"`
	MaxIterations      int       `json:"max_iterations"`
	TimeoutMinutes     *int      `json:"timeout_minutes"`
}

// RegFinshed remembers a loop that left active_loops.
type RegFinshed struct {
	LoopID     string    `json:"loop_id"`
	Status     Status    `json:"status"`
	FinishedAt time.Time `json:"finished_at"`
}

func (s *Store) registryPath() string { return filepath.Join(s.Dir, registryName) }

// ReadRegistry reads registry.json (an empty registry when there is none).
func (s *Store) ReadRegistry() (*Registry, error) {
	r := &Registry{Version: StateVersion, MaxConcurrentLoops: MaxConcurrentLoops, ActiveLoops: []RegEntry{}, RegistryPath: RalphDir + "/" + registryName}
	if err := s.checkLinks(""); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(s.registryPath())
	if os.IsNotExist(err) {
		return r, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, r); err != nil {
		return nil, fmt.Errorf("%s is corrupt (%v); fix or remove it: each loop's state.json is the source of truth", s.registryPath(), err)
	}
	if err := s.verifyRegistry(r); err != nil {
		return nil, err
	}
	if r.ActiveLoops == nil {
		r.ActiveLoops = []RegEntry{}
	}
	return r, nil
}

// UpdateRegistry applies f to the registry under the registry's lock and
// writes it atomically.
func (s *Store) UpdateRegistry(now time.Time, f func(*Registry) error) error {
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return err
	}
	var lock *Lock
	for lock == nil {
		var err error
		if lock, _, err = lockFile(filepath.Join(s.Dir, ".registry.lock"), lockInfo{PID: os.Getpid(), Op: "registry"}); err != nil {
			return err
		}
		if lock == nil {
			time.Sleep(20 * time.Millisecond)
		}
	}
	defer lock.Unlock()
	r, err := s.ReadRegistry()
	if err != nil {
		return err
	}
	if err := f(r); err != nil {
		return err
	}
	r.LastUpdated, r.UpdatedAt = now, now
	r.TotalActive = len(r.ActiveLoops)
	return WriteAtomic(s.registryPath(), s.sealRegistry(r))
}

// RebuildRegistry writes registry.json anew from the loops' verified
// states (each loop's state.json is the source of truth; the registry only
// lists them). Loops whose state does not load are left out and named.
func (s *Store) RebuildRegistry(now time.Time) ([]string, error) {
	ids, err := s.Loops()
	if err != nil {
		return nil, err
	}
	r := &Registry{Version: StateVersion, MaxConcurrentLoops: MaxConcurrentLoops, ActiveLoops: []RegEntry{}, RegistryPath: RalphDir + "/" + registryName}
	var skipped []string
	for _, id := range ids {
		snap, err := s.Load(id)
		if err != nil {
			skipped = append(skipped, id)
			continue
		}
		st := snap.State
		if !st.Status.Terminal() {
			r.Sync(st, now)
			continue
		}
		switch st.Status {
		case StatusCompleted:
			r.TotalCompleted++
		case StatusAborted:
			r.TotalAborted++
		}
		r.Finished = append(r.Finished, RegFinshed{LoopID: st.LoopID, Status: st.Status, FinishedAt: st.LastUpdated})
	}
	r.LastUpdated, r.UpdatedAt = now, now
	r.TotalActive = len(r.ActiveLoops)
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return nil, err
	}
	return skipped, WriteAtomic(s.registryPath(), s.sealRegistry(r))
}

// Sync puts a loop's current state into the registry: an active loop is
// added or updated, a finished one removed and counted.
func (r *Registry) Sync(st *State, now time.Time) {
	idx := -1
	for i := range r.ActiveLoops {
		if r.ActiveLoops[i].LoopID == st.LoopID {
			idx = i
		}
	}
	if st.Status.Terminal() {
		if idx >= 0 {
			r.ActiveLoops = append(r.ActiveLoops[:idx], r.ActiveLoops[idx+1:]...)
			switch st.Status {
			case StatusCompleted:
				r.TotalCompleted++
			case StatusAborted:
				r.TotalAborted++
			}
			r.Finished = append(r.Finished, RegFinshed{LoopID: st.LoopID, Status: st.Status, FinishedAt: now})
		}
		return
	}
	e := RegEntry{
		LoopID: st.LoopID, Status: st.Status, Iteration: st.Iteration, Task: st.Task,
		TaskSummary: Summary(st.Task), CompletionCriteria: st.CompletionCriteria,
		StartedAt: st.StartedAt, LastActive: now, PID: st.PID, Owner: st.Owner,
		WorkingDirectory: st.WorkingDirectory, StateFile: RelStatePath(st.LoopID),
		MaxIterations: st.Configuration.MaxIterations, TimeoutMinutes: st.Configuration.TimeoutMinutes,
	}
	if idx >= 0 {
		r.ActiveLoops[idx] = e
	} else {
		r.ActiveLoops = append(r.ActiveLoops, e)
	}
}

// Summary shortens a task to the registry's 200 characters.
func Summary(task string) string {
	task = strings.Join(strings.Fields(task), " ")
	if len(task) <= 200 {
		return task
	}
	cut := 197
	for cut > 0 && task[cut]&0xC0 == 0x80 {
		cut--
	}
	return task[:cut] + "..."
}
