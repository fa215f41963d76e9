package loop

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// TestBookkeeping: the helpers record uses between its steps.
func TestBookkeeping(t *testing.T) {
	t.Parallel()
	st := loopWith(50, 60, 70)
	st.IterationHistory[1].Verified = true
	if got := failStreak(st, false); got != 2 {
		t.Errorf("failStreak = %d, want 2 (this one and iteration 3)", got)
	}
	if got := failStreak(st, true); got != 0 {
		t.Errorf("failStreak of a pass = %d", got)
	}
	st.IterationHistory[1].Fingerprint, st.IterationHistory[2].Fingerprint = "f", "f"
	if !stuck(st, "f", 3) || stuck(st, "f", 4) || stuck(st, "f", 1) || stuck(st, "g", 2) {
		t.Error("stuck rule")
	}
	if got := percentile(nil, 95); got != 0 {
		t.Errorf("percentile(nil) = %d", got)
	}
	if got := percentile([]int{5, 1, 9, 3}, 50); got != 3 {
		t.Errorf("percentile 50 = %d", got)
	}
	if got := percentile([]int{5, 1, 9, 3}, 0); got != 1 {
		t.Errorf("percentile 0 = %d", got)
	}
	// Usage: only the iterations run drove count as unreported.
	tok, cost := 10, 0.5
	st.IterationHistory[0].TokensUsed, st.IterationHistory[0].TokenCostUSD = &tok, &cost
	st.IterationHistory[0].Agent = &state.AgentRun{}
	st.IterationHistory[1].TokensUsed = &tok
	st.IterationHistory[1].Agent = &state.AgentRun{}
	st.IterationHistory[2].Agent = &state.AgentRun{}
	tokens, usd := UsageTotals(st)
	nt, nc := UnreportedUsage(st)
	if tokens == nil || *tokens != 20 || usd == nil || *usd != 0.5 || nt != 1 || nc != 2 {
		t.Errorf("usage = %v %v, unreported %d %d", tokens, usd, nt, nc)
	}
	if got := changedPaths(nil); len(got) != 0 {
		t.Errorf("changedPaths(nil) = %v", got)
	}
	if d := cmp.Diff([]string{"b", "a"}, dedupeIDs(dedupe([]gate.Finding{{ID: "b"}, {ID: "a"}, {ID: "b"}}))); d != "" {
		t.Errorf("dedupe (-want +got):\n%s", d)
	}
	if got := blocking([]gate.Finding{{Type: gate.TestSkipping, Severity: gate.SeverityCritical}, {Type: gate.TestDeletion, Severity: gate.SeverityHigh},
		{Type: gate.TestDeletion, Severity: gate.SeverityHigh}, {Type: gate.TestSkipping, Severity: gate.SeverityHigh}}); strings.Join(got, ",") != "critical test_skipping,test_deletion" {
		t.Errorf("blocking = %q", got)
	}
	if got := triggerOf(nil); got != "regression_detected" {
		t.Errorf("triggerOf(nil) = %q", got)
	}
	if got := joinNotes("", "a", "", "b"); got != "a; b" {
		t.Errorf("joinNotes = %q", got)
	}
	if got := findingWhere("a.go", 0); got != "a.go" {
		t.Errorf("findingWhere = %q", got)
	}
	if got := rel("/a/b", "c/d"); got != "c/d" {
		t.Errorf("rel of a relative path = %q", got)
	}
	if got := pastTense("postpone"); got != "postpone" {
		t.Errorf("pastTense = %q", got)
	}
	if got := short7("abc"); got != "abc" {
		t.Errorf("short7 = %q", got)
	}
	if got := continueReason(&state.Iteration{Void: true}, false); got != "continue: the iteration is void" {
		t.Errorf("continueReason(void) = %q", got)
	}
	if !state.CanMove(state.StatusCompleting, state.StatusCompleted) || state.CanMove(state.StatusCompleted, state.StatusRunning) || len(state.Allowed(state.StatusAborted)) != 0 {
		t.Error("transitions")
	}
	if (&InputError{Msg: "m"}).Error() != "m" || (&BlockedError{Msg: "b"}).Error() != "b" || (&BudgetError{Msg: "u"}).Error() != "u" || (&StoppedError{Msg: "s"}).Error() != "s" {
		t.Error("error messages")
	}
}

func dedupeIDs(fs []gate.Finding) []string {
	var ids []string
	for _, f := range fs {
		ids = append(ids, f.ID)
	}
	return ids
}
