package state

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/config"
)

// seedAIWG is the seeds' aiwg.yml example (Configuration section of the
// integration guide), plus a ralph section.
const seedAIWG = `agent_persistence:
  enabled: true
  detection:
    mode: "standard"
    patterns_enabled: [test_deletion, feature_removal, coverage_regression, validation_bypass]
  reinforcement:
    default_level: "MINIMAL"
    escalation_thresholds:
      iteration_3: "STANDARD"
      iteration_5: "AGGRESSIVE"
    quality_plateau_threshold: 0.05
  recovery:
    max_retries: 3
    auto_escalate_on_critical: true
    human_gate_timeout_minutes: null
  best_output_selection:
    enabled: true
    quality_threshold: 70
    require_verification: false
  performance:
    detection_latency_budget_ms: 500
ralph:
  minIterations: 2
  maxIterations: 12
  improvementThreshold: 0.04
other_tool:
  anything: [1, 2]
`

func TestAIWGSettings(t *testing.T) {
	s := Defaults()
	if err := s.ApplyAIWG("aiwg.yml", []byte(seedAIWG)); err != nil {
		t.Fatal(err)
	}
	want := Defaults()
	want.MaxIterations, want.MinIterations, want.ImprovementStop, want.PlateauThreshold = 12, 2, 4, 5
	want.Sources = []string{"aiwg.yml"}
	if diff := cmp.Diff(want, s); diff != "" {
		t.Errorf("settings (-want +got):\n%s", diff)
	}
	for _, bad := range []struct{ yml, want string }{
		{"agent_persistence:\n  reinforcement:\n    default_level: LOUD\n", `unknown reinforcement level "LOUD"`},
		{"agent_persistence:\n  reinforcement:\n    escalation_thresholds:\n      third: STANDARD\n", `key "third" is not iteration_N`},
		{"ralph:\n  maxIterations: many\n", "aiwg.yml"},
		{"ralph:\n  maxIterations: 0\n", "max iterations must be at least 1"},
	} {
		s := Defaults()
		if err := s.ApplyAIWG("aiwg.yml", []byte(bad.yml)); err == nil || !strings.Contains(err.Error(), bad.want) || !strings.HasPrefix(err.Error(), "aiwg.yml") {
			t.Errorf("ApplyAIWG(%q) = %v, want an error naming aiwg.yml with %q", bad.yml, err, bad.want)
		}
	}
}

func TestConfigSettings(t *testing.T) {
	cfg, err := config.Parse(".ralph-gate.yml", []byte("loop:\n  max_iterations: 7\n  weights: {validation: 3, completeness: 1}\n  stop: {quality: 90}\n  reinforcement: aggressive\n"))
	if err != nil {
		t.Fatal(err)
	}
	s := Defaults()
	if err := s.ApplyConfig("loop", cfg.Loop); err != nil {
		t.Fatal(err)
	}
	s.Normalize()
	if s.MaxIterations != 7 || s.QualityStop != 90 || s.Reinforcement != "AGGRESSIVE" || s.Weights["validation"] != 75 || s.Weights["completeness"] != 25 || s.Weights["correctness"] != 0 {
		t.Errorf("settings = %+v", s)
	}
	for _, bad := range []string{"loop:\n  weights: {speed: 1}\n", "loop:\n  stop: {quality: 120}\n", "loop:\n  reinforcement: LOUD\n", "loop:\n  collect: sometimes\n"} {
		if _, err := config.Parse(".ralph-gate.yml", []byte(bad)); err == nil || !strings.Contains(err.Error(), "loop:") {
			t.Errorf("config.Parse(%q) = %v, want a loop error", bad, err)
		}
	}
}

// FuzzAIWGSettings: any aiwg.yml is read or rejected, never a panic.
func FuzzAIWGSettings(f *testing.F) {
	f.Add([]byte(seedAIWG))
	f.Add([]byte("agent_persistence: [1]\n"))
	f.Add([]byte("ralph: {improvementThreshold: -3, maxIterations: 1}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := Defaults()
		_ = s.ApplyAIWG("aiwg.yml", data)
	})
}

// TestUnknownAIWGKeys: keys ralph-gate does not read are named, whole
// sections once; the keys it reads, and anything below
// escalation_thresholds, are not.
func TestUnknownAIWGKeys(t *testing.T) {
	data := []byte(`
project:
  name: x
agent_persistence:
  reinforcement:
    default_level: STANDARD
    escalation_thresholds:
      iteration_3: AGGRESSIVE
    defualt_level: typo
  recovery:
    max_retries: 2
    backoff: 5
  detection:
    enabled: true
ralph:
  maxIterations: 7
  maxIteration: 8
`)
	got := strings.Join(UnknownAIWGKeys(data), ",")
	want := "agent_persistence.detection,agent_persistence.recovery.backoff,agent_persistence.reinforcement.defualt_level,project,ralph.maxIteration"
	if got != want {
		t.Errorf("unknown keys:\n got %s\nwant %s", got, want)
	}
	if got := UnknownAIWGKeys([]byte("ralph:\n  maxIterations: 3\n")); len(got) != 0 {
		t.Errorf("known keys reported: %v", got)
	}
}
