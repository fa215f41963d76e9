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

// TestStartResolvesSettings: start resolves the defaults, aiwg.yml at
// HEAD, .ralph-gate.yml's loop section and the flags, the later winning.
func TestStartResolvesSettings(t *testing.T) {
	t.Parallel()
	r := newLoopRepo(t)
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
	st, notes, err := Start(context.Background(), e, StartOptions{Task: "t", Completion: "false", MaxIterations: intPtr(3)})
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

// TestStartSettingsFromTheWorkTree: an aiwg.yml that is not committed
// is read from the work tree; broken settings files are input errors.
func TestStartSettingsFromTheWorkTree(t *testing.T) {
	t.Parallel()
	r := newLoopRepo(t)
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
