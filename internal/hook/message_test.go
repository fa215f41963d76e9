package hook

import (
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

func TestWriteSummary(t *testing.T) {
	base, head := plumbing.NewHash(shaB), plumbing.NewHash(shaA)
	rep := &gate.Report{
		FailOn:  gate.SeverityHigh,
		Verdict: gate.VerdictBlock,
		Commits: []gate.Commit{{SHA: shaA, Subject: "agent: make the tests pass \x1b[31mnow\x1b[0m"}},
		Findings: []gate.Finding{
			{Type: gate.ErrorSuppression, Severity: gate.SeverityMedium, File: "a.go", Line: 3, Commit: shaA, Net: true, Message: "nolint added"},
			{Type: gate.TestDeletion, Severity: gate.SeverityCritical, File: "a_test.go", Line: 11, Test: "TestSub", Commit: shaA, Net: true, Message: "TestSub was\ndeleted"},
			{Type: gate.TestDeletion, Severity: gate.SeverityCritical, File: "b_test.go", Test: "TestOld", Net: false, Message: "restored later"},
			{Type: gate.TestSkipping, Severity: gate.SeverityHigh, File: "c_test.go", Test: "TestC", Net: true, Suppressed: "sanctioned"},
		},
	}
	var b strings.Builder
	n := WriteSummary(&b, []Checked{
		{Target: Target{Update: RefUpdate{RemoteRef: "refs/heads/old"}, Skip: "deletes the remote ref: nothing to check"}},
		{Target: Target{Update: RefUpdate{RemoteRef: "refs/heads/main"}, Base: base, Head: head, BaseFrom: "the remote's 222222222222"}, Report: rep, Command: "analyze"},
		{Target: Target{Update: RefUpdate{RemoteRef: "refs/tags/v1"}, SameAs: "refs/heads/main"}},
	})
	want := `ralph-gate: refs/heads/old: deletes the remote ref: nothing to check
ralph-gate: refs/heads/main: 1 commit 222222222222..111111111111 (base: the remote's 222222222222): block
  critical test_deletion a_test.go:11 test TestSub commit 111111111111 "agent: make the tests pass \x1b[31mnow\x1b[0m"
           TestSub was deleted
  medium   error_suppression a.go:3 commit 111111111111 "agent: make the tests pass \x1b[31mnow\x1b[0m" (below fail-on: does not block)
           nolint added
ralph-gate: refs/tags/v1: the same commits as refs/heads/main
ralph-gate: push refused: 1 net finding at or above high (fail_on in .ralph-gate.yml at the base, or --fail-on)
ralph-gate: the full report: ralph-gate analyze 222222222222 111111111111
ralph-gate: to push anyway (you answer for it): git push --no-verify, or RALPH_GATE_SKIP=1 git push
`
	if n != 1 {
		t.Errorf("blocking = %d, want 1", n)
	}
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if strings.ContainsRune(b.String(), 0x1b) {
		t.Error("an escape byte reached the terminal")
	}
}
