package loop

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// MigrateLegacy turns a legacy current-loop.json into a loop of the
// multi-loop layout, once: it measures a baseline at HEAD like start does,
// keeps the legacy loop's task, completion criteria, limit and iteration
// count, and leaves the legacy file in place for the tools that read it. It
// returns the new loop id, or "" when there is nothing to migrate.
func MigrateLegacy(ctx context.Context, e *Env, owner string, pid int) (string, error) {
	data, err := os.ReadFile(e.Store.LegacyPath())
	if os.IsNotExist(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	var l state.Legacy
	if err := json.Unmarshal(data, &l); err != nil {
		return "", fmt.Errorf("%s is not a loop state (%v): move it away or fix it", e.Store.LegacyPath(), err)
	}
	id := firstOf(l.LoopID, l.LoopIDCamel)
	if ids, err := e.Store.Loops(); err == nil {
		for _, x := range ids {
			if x == id {
				return "", nil // migrated before
			}
			if snap, err := e.Store.Load(x); err == nil && snap.State.RalphGate.MigratedFrom != "" {
				return "", nil
			}
		}
	}
	task := l.Task
	if task == "" {
		return "", fmt.Errorf("%s has no task: cannot migrate it", e.Store.LegacyPath())
	}
	completion := firstOf(l.Completion, l.CompletionCamel, l.CompletionPromis)
	opt := StartOptions{Task: task, Completion: completion, Owner: owner, PID: pid,
		MaxIterations: firstInt(l.MaxIter, l.MaxIterCamel)}
	if completion == "" {
		opt.Completion = "false"
	}
	st, _, err := Start(ctx, e, opt)
	if err != nil {
		return "", fmt.Errorf("migrate %s: %w", e.Store.LegacyPath(), err)
	}
	snap, err := e.Store.Load(st.LoopID)
	if err != nil {
		return "", err
	}
	st = snap.State
	st.RalphGate.MigratedFrom = state.RalphDir + "/" + state.LegacyName
	if n := firstInt(l.Iteration, l.IterationCamel); n != nil && *n > 0 {
		st.Iteration = *n
		st.Metrics.TotalIterations = *n
	}
	now := e.now()
	switch strings.ToLower(l.Status) {
	case "completed", "complete", "max_iterations_reached":
		st.Status, st.CompletedAt = state.StatusCompleted, &now
	case "cancelled", "canceled", "aborted":
		st.Status, st.CompletedAt = state.StatusAborted, &now
	case "error", "failed":
		st.Status, st.CompletedAt = state.StatusFailed, &now
	case "paused":
		st.Status = state.StatusPaused
	}
	if st.Status.Terminal() {
		st.DetectionEnabled = false
	}
	st.LastUpdated = now
	if err := e.Store.Save(snap, "migrate", now); err != nil {
		return "", err
	}
	e.syncRegistry(st, now)
	_ = e.Store.AppendLog(st.LoopID, hookEntry(now, "loop_migrated", st, st.Iteration, []string{"migrated from " + state.LegacyName}))
	return st.LoopID, nil
}

func firstOf(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

func firstInt(p ...*int) *int {
	for _, x := range p {
		if x != nil {
			return x
		}
	}
	return nil
}
