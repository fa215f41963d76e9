//go:build unix

package loop

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// TestCoverStartResolvesSettings: start resolves the defaults, aiwg.yml at
// HEAD, .ralph-gate.yml's loop section and the flags, the later winning.
func TestCoverStartResolvesSettings(t *testing.T) {
	t.Parallel()
	r := newCVRepo(t)
	r.write("aiwg.yml", `agent_persistence:
  reinforcement:
    default_level: standard
    escalation_thresholds:
      iteration_2: AGGRESSIVE
      quality_plateau: ADAPTIVE
    quality_plateau_threshold: 0.02
  recovery:
    max_retries: 2
  best_output_selection:
    quality_threshold: 0.8
    require_verification: true
ralph:
  maxIterations: 4
  qualityThreshold: 0.9
  plateauWindow: 4
  plateauThreshold: 2
  maxRegressions: 1
`)
	r.write(".ralph-gate.yml", `loop:
  max_iterations: 6
  max_retries: 5
  require_verification: false
  completion_timeout: 30s
  collect: none
  weights: {validation: 1, completeness: 1, correctness: 1, readability: 1, efficiency: 0}
  stop: {improvement: 2, max_regressions: 3}
`)
	head := r.commit("settings")
	e := r.env()
	e.Collect = "" // the configuration says none
	st, notes, err := Start(context.Background(), e, StartOptions{Task: "t", Completion: "false", MaxIterations: cvInt(3)})
	if err != nil {
		t.Fatal(err)
	}
	want := state.Defaults()
	want.MaxIterations = 3 // the flag
	want.Reinforcement = "STANDARD"
	want.Escalation = map[int]string{2: "AGGRESSIVE"}
	want.PlateauEscalation = "ADAPTIVE"
	want.PlateauThreshold = 2
	want.MaxRetries = 5
	want.QualityThreshold = 80
	want.RequireVerification = false
	want.QualityStop = 90
	want.PlateauWindow = 4
	want.MaxRegressions = 3
	want.ImprovementStop = 2
	want.CompletionTimeout = "30s"
	want.Collect = "none"
	want.Weights = map[string]float64{"validation": 25, "completeness": 25, "correctness": 25, "readability": 25, "efficiency": 0}
	want.Sources = []string{"aiwg.yml (at " + head[:12] + ")", ".ralph-gate.yml loop section"}
	if d := cmp.Diff(want, st.RalphGate.Settings); d != "" {
		t.Errorf("settings (-want +got):\n%s", d)
	}
	if st.ReinforcementLevel != "STANDARD" || st.Configuration.MaxIterations != 3 {
		t.Errorf("level %s, max %d", st.ReinforcementLevel, st.Configuration.MaxIterations)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "collect: none") {
		t.Errorf("notes = %q", notes)
	}
	if d := st.RalphGate.Settings.CompletionTimeoutDuration(); d.Seconds() != 30 {
		t.Errorf("completion timeout = %v", d)
	}
}

// TestCoverStartSettingsFromTheWorkTree: an aiwg.yml that is not committed
// is read from the work tree; broken settings files are input errors.
func TestCoverStartSettingsFromTheWorkTree(t *testing.T) {
	t.Parallel()
	r := newCVRepo(t)
	r.write("aiwg.yml", "ralph:\n  maxIterations: 5\n")
	e := r.env()
	st, _, err := Start(context.Background(), e, StartOptions{Task: "t", Completion: "false"})
	if err != nil {
		t.Fatal(err)
	}
	if st.RalphGate.Settings.MaxIterations != 5 || cmp.Diff([]string{"aiwg.yml", ".ralph-gate.yml loop section"}, st.RalphGate.Settings.Sources) != "" {
		t.Errorf("settings = %+v", st.RalphGate.Settings)
	}
	var in *InputError
	r.write("aiwg.yml", "ralph:\n  maxIterations: 0\n")
	if _, _, err := Start(context.Background(), e, StartOptions{Task: "t", Completion: "false"}); !errors.As(err, &in) || !strings.Contains(err.Error(), "max iterations must be at least 1") {
		t.Errorf("a bad aiwg.yml in the work tree: %v", err)
	}
	r.write("aiwg.yml", "agent_persistence:\n  reinforcement:\n    default_level: LOUD\n")
	r.commit("bad aiwg.yml")
	if _, _, err := Start(context.Background(), e, StartOptions{Task: "t", Completion: "false"}); !errors.As(err, &in) || !strings.Contains(err.Error(), "LOUD") {
		t.Errorf("a bad aiwg.yml at HEAD: %v", err)
	}
	if err := os.Remove(r.dir + "/aiwg.yml"); err != nil {
		t.Fatal(err)
	}
	r.write(".ralph-gate.yml", "loop:\n  collect: sometimes\n")
	r.commit("bad config")
	if _, _, err := Start(context.Background(), e, StartOptions{Task: "t", Completion: "false"}); !errors.As(err, &in) || !strings.Contains(err.Error(), ".ralph-gate.yml") {
		t.Errorf("a bad .ralph-gate.yml: %v", err)
	}
}

// TestCoverSettingsRules: the rules ApplyAIWG, ApplyConfig and Normalize
// keep.
func TestCoverSettingsRules(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ yml, want string }{
		{"agent_persistence:\n  reinforcement:\n    escalation_thresholds:\n      quality_plateau: LOUD\n", "escalation_thresholds.quality_plateau"},
		{"agent_persistence:\n  reinforcement:\n    escalation_thresholds:\n      iteration_0: STANDARD\n", `key "iteration_0" is not iteration_N`},
		{"agent_persistence:\n  reinforcement:\n    escalation_thresholds:\n      iteration_4: LOUD\n", "escalation_thresholds.iteration_4"},
		{"agent_persistence:\n  recovery:\n    max_retries: 0\n", "max retries must be at least 1"},
		{"agent_persistence:\n  best_output_selection:\n    quality_threshold: 150\n", "quality threshold must be 0 to 100"},
		{"ralph:\n  minIterations: -1\n", "min iterations must not be negative"},
	} {
		s := state.Defaults()
		if err := s.ApplyAIWG("aiwg.yml", []byte(tt.yml)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ApplyAIWG(%q) = %v, want %q", tt.yml, err, tt.want)
		}
	}
	s := state.Defaults()
	s.Weights = map[string]float64{}
	s.Normalize()
	if d := cmp.Diff(state.Defaults().Weights, s.Weights); d != "" {
		t.Errorf("zero weights normalize to (-want +got):\n%s", d)
	}
	for in, want := range map[string]float64{"": 600, "soon": 600, "-1s": 600, "90s": 90} {
		if got := (state.Settings{CompletionTimeout: in}).CompletionTimeoutDuration().Seconds(); got != want {
			t.Errorf("CompletionTimeoutDuration(%q) = %vs, want %vs", in, got, want)
		}
	}
}

// TestCoverMigrateLegacy: a legacy current-loop.json becomes a loop once,
// keeping its task, completion, limit, iteration count and status.
func TestCoverMigrateLegacy(t *testing.T) {
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
			r := newCVRepo(t)
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
			if hooks := cvHooks(t, e, id); hooks != "loop_start loop_migrated" {
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

func TestCoverMigrateLegacyNothingOrBroken(t *testing.T) {
	t.Parallel()
	r := newCVRepo(t)
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
