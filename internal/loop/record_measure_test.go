//go:build unix

package loop

import (
	"context"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/collect"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// TestMeasuredLoop runs the real Go collector (go test in a worktree)
// on the calc module, whose TestAdd fails at the baseline: a rewrite of
// TestAdd's expected value makes it pass without touching the code, which
// only the loop's history shows (blocked, critical); after the reject, the
// real fix completes the loop.
func TestMeasuredLoop(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: a measured loop runs go test at every iteration; go test ./... (without -short) runs it, as .ci/run does")
	}
	t.Parallel()
	r := newLoopRepo(t)
	e := r.env()
	e.Collect = "" // the loop's own setting: auto
	e.Cache = collect.NewCache(t.TempDir())
	var said []string
	e.Progress = func(s string) { said = append(said, s) }
	snap := r.start(e, StartOptions{Task: "fix Add", Completion: "go test ./..."})
	s := snap.State
	const add = "example.com/calc.TestAdd"
	if !s.Configuration.AutoTest || strings.Join(s.RalphGate.BaselineFailing, ",") != add || s.BaselineMetrics.TestCount != 2 ||
		s.RalphGate.BaselineTests == nil || s.RalphGate.BaselineTests.Failed != 1 || s.RalphGate.BaselineTests.Passed != 1 ||
		s.BaselineMetrics.CustomMetrics["test_count_measured"] != nil || s.RalphGate.BaselineCoverage == nil {
		t.Fatalf("baseline: failing %v, tests %+v, metrics %+v", s.RalphGate.BaselineFailing, s.RalphGate.BaselineTests, s.BaselineMetrics)
	}
	if !strings.Contains(strings.Join(said, "\n"), "measuring the baseline") {
		t.Errorf("progress = %q", said)
	}

	// The check is rewritten to pass.
	r.write("calc_test.go", strings.Replace(calcTestSource, "got != 5", "got != -1", 1))
	r.commit("iteration 1: TestAdd passes")
	out := r.record(e, snap)
	it := out.Iteration
	var hist *gate.Finding
	for i, f := range it.Findings {
		if f.Rule == gate.RuleHistoryTestEditedToPass.ID {
			hist = &it.Findings[i]
		}
	}
	if hist == nil || hist.Type != gate.AssertionWeakening || hist.Severity != gate.SeverityCritical || hist.Evidence != gate.EvidenceHistory ||
		hist.Test != "TestAdd" || !strings.Contains(hist.Message, "failed at the baseline and passes in iteration 1") {
		t.Fatalf("history finding = %+v in %+v", hist, it.Findings)
	}
	if out.Decision != Blocked || !it.Void || it.TestResults == nil || it.TestResults.Passed != 2 || len(it.FailingTests) != 0 {
		t.Errorf("iteration 1 = %s (%s), tests %+v", out.Decision, out.Reason, it.TestResults)
	}
	if _, _, good, err := Reject(context.Background(), e, snap, ""); err != nil || good != 0 {
		t.Fatalf("reject: %d, %v", good, err)
	}

	// The real fix: the code under test changed, so TestAdd's pass is real.
	r.write("calc.go", fixedAdd)
	r.commit("iteration 2: fix Add")
	out = r.record(e, snap)
	it = out.Iteration
	if out.Decision != Stopped || !it.Verified || s.Status != state.StatusCompleted || len(it.FailingTests) != 0 ||
		it.QualityBreakdown.Correctness != 100 || it.QualityBreakdown.Completeness != 100 || it.QualityScore <= s.RalphGate.BaselineScore {
		t.Errorf("iteration 2 = %s (%s), %+v, score %.1f (baseline %.1f)", out.Decision, out.Reason, it.QualityBreakdown, it.QualityScore, s.RalphGate.BaselineScore)
	}
	for _, f := range it.Findings {
		if f.Rule == gate.RuleHistoryTestEditedToPass.ID && f.Suppressed == "" {
			t.Errorf("the real fix is flagged: %+v", f)
		}
	}
	a := BuildAnalytics(s)
	if a.Breakdown[0].First == nil || *a.Breakdown[0].First != 50 || a.Breakdown[0].Last == nil || *a.Breakdown[0].Last != 100 {
		t.Errorf("tests passing breakdown = %+v", a.Breakdown[0])
	}
}
