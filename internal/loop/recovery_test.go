//go:build unix

package loop

import (
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// skipSub is calc_test.go with TestSub skipped.
var skipSub = strings.Replace(calcTestSource, "func TestSub(t *testing.T) {\n", "func TestSub(t *testing.T) {\n\tt.Skip(\"later\")\n", 1)

// TestRecoveryRetrySucceeds: a regression that does not need a human
// (a skipped test) opens the recovery protocol with a retry; the next
// iteration that undoes it closes the retry as a success.
func TestRecoveryRetrySucceeds(t *testing.T) {
	t.Parallel()
	r := newLoopRepo(t)
	e := r.env()
	// The completion command prints the tests, so that no two iterations
	// fail alike.
	snap := r.start(e, StartOptions{Task: "fix calc", Completion: "cat calc_test.go calc.go; false"})
	s := snap.State
	r.write("calc_test.go", skipSub)
	r.commit("iteration 1: skip TestSub")
	out := r.record(e, snap)
	it := out.Iteration
	if out.Decision != Continue || !it.Regression || !it.RecoveryAttempt || it.Void || !hasFinding(it, string(gate.TestSkipping)) ||
		out.Reason != "continue: regression in iteration 1; recovery retry with the adapted strategy" {
		t.Fatalf("iteration 1 = %s (%s), regression %v, findings %+v", out.Decision, out.Reason, it.Regression, it.Findings)
	}
	rec := s.RecoveryHistory[0]
	if rec.ProtocolSteps.Retry == nil || rec.ProtocolSteps.Retry.RetryIteration != 2 || rec.ProtocolSteps.Escalate != nil || rec.Attempt != 1 ||
		rec.ProtocolSteps.Adapt.Strategy != "restore_checks" || rec.Trigger != "regression_detected: test_skipping" || len(s.PendingGates()) != 0 {
		t.Fatalf("recovery = %+v", rec)
	}
	if s.ReinforcementLevel != "ADAPTIVE" || s.RegressionEvents[0].RecoveryOutcome != nil || !s.RegressionEvents[0].RecoveryInvoked {
		t.Errorf("level %s, event %+v", s.ReinforcementLevel, s.RegressionEvents[0])
	}
	p := Prompt(s)
	for _, want := range []string{"## 🚨 ralph-gate: iteration 2 of 10", "Strategy after iteration 1 (diagnosis: reward_hacking, confidence 0.90): restore every check listed below first",
		"Restore these before anything else:\n- un-skip TestSub (calc_test.go"} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt lacks %q:\n%s", want, p)
		}
	}

	r.write("calc_test.go", calcTestSource)
	r.write("calc.go", fixedAdd)
	r.commit("iteration 2: un-skip, fix Add")
	out = r.record(e, snap)
	rec = s.RecoveryHistory[0]
	if out.Decision != Continue || out.Iteration.Regression || rec.Outcome != "success" || rec.ProtocolSteps.Retry.Outcome != "success" ||
		rec.ProtocolSteps.Retry.RetryIteration != 2 || s.RegressionEvents[0].RecoveryOutcome == nil || *s.RegressionEvents[0].RecoveryOutcome != "success" {
		t.Errorf("iteration 2 = %s (%s), recovery %+v", out.Decision, out.Reason, rec)
	}
	// Iteration 2 recovered, but its completion still fails: not a
	// successful iteration.
	if s.Metrics.FailedIterations != 1 || s.Metrics.SuccessfulIterations != 0 {
		t.Errorf("metrics = %+v", s.Metrics)
	}
}

// TestRecoveryRetriesExhausted: a regression left in place fails each
// retry; the third attempt escalates to a human.
func TestRecoveryRetriesExhausted(t *testing.T) {
	t.Parallel()
	r := newLoopRepo(t)
	e := r.env()
	snap := r.start(e, StartOptions{Task: "fix calc", Completion: "cat *.txt; false"})
	s := snap.State
	r.write("calc_test.go", skipSub)
	r.write("a.txt", "one\n")
	r.commit("iteration 1: skip TestSub")
	if out := r.record(e, snap); out.Decision != Continue || !out.Iteration.Regression {
		t.Fatalf("iteration 1: %s", out.Reason)
	}
	r.write("a.txt", "two\n")
	r.commit("iteration 2: the skip stays")
	out := r.record(e, snap)
	if out.Decision != Continue || !out.Iteration.Regression || s.RecoveryHistory[0].Outcome != "failed" || s.RecoveryAttempts != 2 || len(s.RecoveryHistory) != 2 {
		t.Fatalf("iteration 2 = %s (%s), recoveries %+v", out.Decision, out.Reason, s.RecoveryHistory)
	}
	if ev := s.RegressionEvents[0]; ev.RecoveryOutcome == nil || *ev.RecoveryOutcome != "failed" {
		t.Errorf("iteration 1's event = %+v", ev)
	}
	r.write("a.txt", "three\n")
	r.commit("iteration 3: the skip still stays")
	out = r.record(e, snap)
	if out.Decision != Blocked || !out.Escalated || !strings.Contains(out.Reason, "recovery attempt 3 of 3: retries are exhausted") || len(s.PendingGates()) != 1 {
		t.Fatalf("iteration 3 = %s (%s), escalated %v", out.Decision, out.Reason, out.Escalated)
	}
	if s.Status != state.StatusPaused || !out.Iteration.Void {
		t.Errorf("status %s, void %v", s.Status, out.Iteration.Void)
	}
}
