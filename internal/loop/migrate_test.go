//go:build unix

package loop

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// TestMigrateLegacy: a legacy current-loop.json becomes a loop once,
// keeping its task, completion, limit, iteration count and status.
func TestMigrateLegacy(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, legacy string
		status       state.Status
		iteration    int
		max          int
		completion   string
	}{
		{"snake case, running", `{"loop_id":"old-1","task":"fix it","completion_criteria":"true","max_iterations":7,"iteration":2,"status":"running"}`,
			state.StatusRunning, 2, 7, "true"},
		{"camel case, completed", `{"loopId":"old-2","task":"fix it","completionPromise":"DONE","maxIterations":4,"currentIteration":4,"status":"max_iterations_reached"}`,
			state.StatusCompleted, 4, 4, "DONE"},
		{"cancelled, no completion", `{"task":"fix it","status":"cancelled"}`, state.StatusAborted, 0, 10, "false"},
		{"failed", `{"task":"fix it","completionCriteria":"make","status":"error"}`, state.StatusFailed, 0, 10, "make"},
		{"paused", `{"task":"fix it","status":"paused"}`, state.StatusPaused, 0, 10, "false"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := newLoopRepo(t)
			e := r.env()
			r.write(state.RalphDir+"/current-loop.json", tt.legacy)
			id, err := MigrateLegacy(context.Background(), e, "owner", 0)
			if err != nil {
				t.Fatal(err)
			}
			st := r.load(e, id).State
			if st.Status != tt.status || st.Iteration != tt.iteration || st.Metrics.TotalIterations != tt.iteration || st.Configuration.MaxIterations != tt.max ||
				st.CompletionCriteria != tt.completion || st.Task != "fix it" || st.Owner != "owner" || st.RalphGate.MigratedFrom != state.RalphDir+"/current-loop.json" {
				t.Errorf("migrated = %s it %d max %d completion %q from %q", st.Status, st.Iteration, st.Configuration.MaxIterations, st.CompletionCriteria, st.RalphGate.MigratedFrom)
			}
			if st.Status.Terminal() == st.DetectionEnabled || (st.Status.Terminal() && st.CompletedAt == nil && st.Status != state.StatusPaused) {
				t.Errorf("terminal %v, detection %v, completed at %v", st.Status.Terminal(), st.DetectionEnabled, st.CompletedAt)
			}
			if hooks := hooksOf(t, e, id); hooks != "loop_start loop_migrated" {
				t.Errorf("hooks = %s", hooks)
			}
			if _, err := os.Stat(e.Store.LegacyPath()); err != nil {
				t.Errorf("the legacy file is gone: %v", err)
			}
			// Once only.
			if again, err := MigrateLegacy(context.Background(), e, "owner", 0); err != nil || again != "" {
				t.Errorf("second migration = %q, %v", again, err)
			}
		})
	}
}

func TestMigrateLegacyNothingOrBroken(t *testing.T) {
	t.Parallel()
	r := newLoopRepo(t)
	e := r.env()
	if id, err := MigrateLegacy(context.Background(), e, "", 0); err != nil || id != "" {
		t.Errorf("nothing to migrate: %q, %v", id, err)
	}
	r.write(state.RalphDir+"/current-loop.json", "not json")
	if _, err := MigrateLegacy(context.Background(), e, "", 0); err == nil || !strings.Contains(err.Error(), "is not a loop state") {
		t.Errorf("broken legacy file: %v", err)
	}
	r.write(state.RalphDir+"/current-loop.json", `{"loop_id":"x"}`)
	if _, err := MigrateLegacy(context.Background(), e, "", 0); err == nil || !strings.Contains(err.Error(), "has no task") {
		t.Errorf("legacy file without a task: %v", err)
	}
	r.write(state.RalphDir+"/current-loop.json", `{"task":"t","max_iterations":0}`)
	var in *InputError
	if _, err := MigrateLegacy(context.Background(), e, "", 0); !errors.As(err, &in) || !strings.Contains(err.Error(), "migrate ") {
		t.Errorf("legacy file with a bad limit: %v", err)
	}
}
