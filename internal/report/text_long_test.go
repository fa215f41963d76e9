package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// A long range lists only the commits that introduced something, unless
// verbose.
func TestTextLongRangeListsCommitsWithFindings(t *testing.T) {
	rep := &gate.Report{Schema: gate.Schema, Base: strings.Repeat("a", 40), Head: strings.Repeat("b", 40), Verdict: gate.VerdictBlock, FailOn: gate.SeverityHigh}
	for i := 0; i < 12; i++ {
		rep.Commits = append(rep.Commits, gate.Commit{SHA: fmt.Sprintf("%040d", i), Subject: fmt.Sprintf("iteration %d", i)})
	}
	rep.Commits[5].Findings = 1
	rep.Findings = []gate.Finding{{ID: "x", Type: gate.TestDeletion, Severity: gate.SeverityCritical, File: "a_test.go", Test: "TestA",
		Commit: rep.Commits[5].SHA, Net: true, Message: "deleted"}}
	var b strings.Builder
	if err := Render(&b, Text, rep, Options{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, "iteration 4") || !strings.Contains(out, "iteration 5") || !strings.Contains(out, "(11 commits without findings not listed; --verbose lists them)") {
		t.Errorf("long range:\n%s", out)
	}
	b.Reset()
	if err := Render(&b, Text, rep, Options{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "iteration 4") || strings.Contains(b.String(), "not listed") {
		t.Errorf("verbose long range:\n%s", b.String())
	}
}
