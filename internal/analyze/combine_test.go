package analyze

import (
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
		{"C", "", true, gate.SeverityMedium},     // only the ends disagree: reported, not critical
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
	if v := gate.Decide(got[1:], gate.FailOn(gate.SeverityHigh)); v != gate.VerdictWarn {
		t.Errorf("transient and medium findings: verdict %s, want warn", v)
	}
}
