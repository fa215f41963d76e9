package analyze

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

func TestCombine(t *testing.T) {
	del := gate.Finding{ID: "A", Type: gate.TestDeletion, Severity: gate.SeverityCritical, Rule: "test-deleted", Test: "TestA", Message: "gone."}
	skip := gate.Finding{ID: "B", Type: gate.TestSkipping, Severity: gate.SeverityHigh, Rule: "skip-added", Test: "TestB", Message: "skipped."}
	drift := gate.Finding{ID: "C", Type: gate.TestDeletion, Severity: gate.SeverityCritical, Rule: "test-deleted", Test: "TestC", Message: "gone."}
	commits := []CommitFindings{
		{SHA: "c1", Subject: "one", Findings: []gate.Finding{del, skip}},
		{SHA: "c2", Subject: "two"},
	}
	got, list := Combine(commits, []gate.Finding{del, drift})
	// c1's transient skip of TestB is a weakened test on the way: the drift
	// of TestC is no step-by-step rename (TestCombineStepWeakened).
	type row struct {
		ID, Commit string
		Net        bool
		Severity   gate.Severity
	}
	var rows []row
	for _, f := range got {
		rows = append(rows, row{f.ID, f.Commit, f.Net, f.Severity})
	}
	want := []row{
		{"A", "c1", true, gate.SeverityCritical}, // net, attributed to the commit that introduced it
		{"C", "c1", true, gate.SeverityCritical}, // only the ends disagree, and c1 weakened a test on the way
		{"B", "c1", false, gate.SeverityHigh},    // introduced, then fixed: transient
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("Combine (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]gate.Commit{{SHA: "c1", Subject: "one", Findings: 2}, {SHA: "c2", Subject: "two"}}, list); diff != "" {
		t.Errorf("commits (-want +got):\n%s", diff)
	}
	if v := gate.Decide(got, gate.FailOn(gate.SeverityHigh)); v != gate.VerdictBlock {
		t.Errorf("verdict %s", v)
	}
	if v := gate.Decide(got[2:], gate.FailOn(gate.SeverityHigh)); v != gate.VerdictPass {
		t.Errorf("a transient finding alone: verdict %s, want pass", v)
	}
}

// TestCombineStepWeakened: a net deletion no commit made by that name stays
// critical when a commit of the range weakened a test the range had
// introduced (renamed in one commit, emptied in the next), and goes to that
// commit.
func TestCombineStepWeakened(t *testing.T) {
	drift := gate.Finding{ID: "C", Type: gate.TestDeletion, Severity: gate.SeverityCritical, Rule: "test-deleted", Test: "TestC", Message: "gone."}
	emptied := gate.Finding{ID: "D", Type: gate.AssertionWeakening, Severity: gate.SeverityHigh, Rule: "assertions-removed", Test: "TestC2", Message: "no checks left."}
	lint := gate.Finding{ID: "E", Type: gate.ErrorSuppression, Severity: gate.SeverityHigh, Rule: "nolint", Message: "nolint."}
	got, _ := Combine([]CommitFindings{{SHA: "c1"}, {SHA: "c2", Findings: []gate.Finding{lint, emptied}}}, []gate.Finding{drift})
	if got[0].ID != "C" || got[0].Severity != gate.SeverityCritical || got[0].Commit != "c2" || !strings.Contains(got[0].Message, "weakened test TestC2") {
		t.Errorf("net deletion = %+v, want critical, from c2, naming TestC2", got[0])
	}
	// A transient finding about no test does not break the step-by-step
	// reading: only the ends disagree, reported, not critical.
	got, _ = Combine([]CommitFindings{{SHA: "c1"}, {SHA: "c2", Findings: []gate.Finding{lint}}}, []gate.Finding{drift})
	if got[0].ID != "C" || got[0].Severity != gate.SeverityMedium || got[0].Commit != "" {
		t.Errorf("net deletion = %+v, want medium, from no commit", got[0])
	}
	if v := gate.Decide(got, gate.FailOn(gate.SeverityHigh)); v != gate.VerdictWarn {
		t.Errorf("verdict %s, want warn", v)
	}
}
