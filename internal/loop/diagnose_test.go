package loop

import (
	"fmt"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// TestDiagnoseAndStrategy: the diagnosis rules past reward hacking,
// and the strategy each cause gets.
func TestDiagnoseAndStrategy(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		ev    Evidence
		cause string
		conf  float64
	}{
		{"suppression", Evidence{Findings: []gate.Finding{{Type: gate.ErrorSuppression, File: "a.go"}}}, CauseRewardHacking, 0.85},
		{"feature removal", Evidence{Findings: []gate.Finding{{Type: gate.FeatureRemoval, Symbol: "F", File: "a.go", Line: 2}}}, CauseRewardHacking, 0.7},
		{"coverage", Evidence{Findings: []gate.Finding{{Type: gate.CoverageRegression}}}, CauseRewardHacking, 0.6},
		{"unverified", Evidence{Findings: []gate.Finding{{Type: gate.Unverified}}}, CauseRewardHacking, 0.5},
		{"history", Evidence{Findings: []gate.Finding{{Type: gate.AssertionWeakening, Evidence: gate.EvidenceHistory}}}, CauseRewardHacking, 0.95},
		{"large diff", Evidence{ChangedFiles: 31}, CauseCognitiveLoad, 0.7},
		{"tests fail, completion passes", Evidence{CompletionPassed: true, TestsMeasured: true, TestsFailing: 2}, CauseAmbiguity, 0.5},
		{"tests pass, completion fails", Evidence{TestsMeasured: true}, CauseAmbiguity, 0.5},
		{"agent failed", Evidence{AgentFailure: "the agent exited with status 1"}, CauseComplexity, 0.6},
		{"fail streak", Evidence{FailStreak: 3}, CauseComplexity, 0.6},
		{"nothing", Evidence{}, CauseComplexity, 0.3},
	} {
		d := Diagnose(tt.ev)
		if d.Cause != tt.cause || d.Confidence != tt.conf || len(d.Evidence) == 0 {
			t.Errorf("%s: Diagnose = %+v, want %s %.2f", tt.name, d, tt.cause, tt.conf)
		}
	}
	for cause, want := range map[string]string{CauseRewardHacking: "restore_checks", CauseCognitiveLoad: "decompose_task",
		CauseAmbiguity: "request_clarification", CauseComplexity: "simpler_approach"} {
		if got, changes := Strategy(cause); got != want || len(changes) == 0 {
			t.Errorf("Strategy(%s) = %s", cause, got)
		}
	}
	many := make([]string, 12)
	for i := range many {
		many[i] = fmt.Sprint(i)
	}
	if got := limit(many, 8); len(got) != 9 || got[8] != "and 4 more" {
		t.Errorf("limit = %v", got)
	}
	if fp := Fingerprint(nil, nil); fp != "" {
		t.Errorf("Fingerprint of nothing = %q", fp)
	}
	if a, b := Fingerprint([]string{"t"}, nil), Fingerprint([]string{"t"}, &state.CompletionCheck{Passed: true}); a == "" || a != b {
		t.Errorf("failing tests alone: %q, %q", a, b)
	}
	if fp := FingerprintRun(nil, &state.CompletionCheck{Passed: true}, &state.AgentRun{ExitCode: 0}); fp != "" {
		t.Errorf("a clean run's fingerprint = %q", fp)
	}
	if fp := FingerprintRun(nil, &state.CompletionCheck{Passed: true}, &state.AgentRun{ExitCode: 1}); fp == "" {
		t.Error("a failed agent has no fingerprint")
	}
}
