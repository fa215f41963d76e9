package state

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSettingsRules: the rules ApplyAIWG, ApplyConfig and Normalize
// keep.
func TestSettingsRules(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ yml, want string }{
		{"agent_persistence:\n  reinforcement:\n    escalation_thresholds:\n      quality_plateau: LOUD\n", "escalation_thresholds.quality_plateau"},
		{"agent_persistence:\n  reinforcement:\n    escalation_thresholds:\n      iteration_0: STANDARD\n", `key "iteration_0" is not iteration_N`},
		{"agent_persistence:\n  reinforcement:\n    escalation_thresholds:\n      iteration_4: LOUD\n", "escalation_thresholds.iteration_4"},
		{"agent_persistence:\n  recovery:\n    max_retries: 0\n", "max retries must be at least 1"},
		{"agent_persistence:\n  best_output_selection:\n    quality_threshold: 150\n", "quality threshold must be 0 to 100"},
		{"ralph:\n  minIterations: -1\n", "min iterations must not be negative"},
	} {
		s := Defaults()
		if err := s.ApplyAIWG("aiwg.yml", []byte(tt.yml)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ApplyAIWG(%q) = %v, want %q", tt.yml, err, tt.want)
		}
	}
	s := Defaults()
	s.Weights = map[string]float64{}
	s.Normalize()
	if d := cmp.Diff(Defaults().Weights, s.Weights); d != "" {
		t.Errorf("zero weights normalize to (-want +got):\n%s", d)
	}
	for in, want := range map[string]float64{"": 600, "soon": 600, "-1s": 600, "90s": 90} {
		if got := (Settings{CompletionTimeout: in}).CompletionTimeoutDuration().Seconds(); got != want {
			t.Errorf("CompletionTimeoutDuration(%q) = %vs, want %vs", in, got, want)
		}
	}
}
