package loop

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// TestCoverPromptInstructions: the evidence names what to restore for each
// finding type, in the iteration that introduced it; suppressed, low and
// non-net findings are left out.
func TestCoverPromptInstructions(t *testing.T) {
	t.Parallel()
	f := func(id string, typ gate.FindingType, file string, line int, test, symbol, msg string) gate.Finding {
		return gate.Finding{ID: id, Type: typ, Severity: gate.SeverityHigh, File: file, Line: line, Test: test, Symbol: symbol, Net: true, Message: msg}
	}
	findings := []gate.Finding{
		f("del", gate.TestDeletion, "a_test.go", 3, "TestA", "", "deleted"),
		f("skip", gate.TestSkipping, "b_test.go", 0, "", "", "skipped"),
		f("weak", gate.AssertionWeakening, "c_test.go", 7, "TestC", "", "want 5 became want 6"),
		f("supp", gate.ErrorSuppression, "d.go", 9, "", "", "//nolint added"),
		f("bypass", gate.ValidationBypass, "e.go", 0, "", "", "check removed"),
		f("feat", gate.FeatureRemoval, "f.go", 1, "", "Parse", "Parse removed"),
		f("cov", gate.CoverageRegression, "", 0, "", "", "80% -> 60%"),
		f("reg", gate.TestRegression, "g_test.go", 0, "TestG", "", "passed before"),
		f("unv", gate.Unverified, "", 0, "", "", "binary file"),
		f("other", "something_new", "h.go", 0, "", "", "a new kind of finding"),
	}
	hidden := []gate.Finding{
		{ID: "s", Type: gate.TestSkipping, Severity: gate.SeverityHigh, Net: true, Suppressed: "allowed", Test: "TestSuppressed"},
		{ID: "l", Type: gate.TestSkipping, Severity: gate.SeverityLow, Net: true, Test: "TestLow"},
		{ID: "n", Type: gate.TestSkipping, Severity: gate.SeverityHigh, Net: false, Test: "TestNotNet"},
	}
	st := loopWith(50, 40)
	st.Task, st.CompletionCriteria, st.Iteration, st.ReinforcementLevel = "t", "make test", 2, "STANDARD"
	st.IterationHistory[0].Findings = findings[:1] // the deletion came first
	last := &st.IterationHistory[1]
	last.Findings = append(append([]gate.Finding(nil), findings...), hidden...)
	last.FailingTests = []string{"t01", "t02", "t03", "t04", "t05", "t06", "t07", "t08", "t09", "t10", "t11", "t12"}
	last.Fingerprint = "same"
	st.IterationHistory[0].Fingerprint = "same"
	st.Progress.LastCompletionCheck = &state.CompletionCheck{Iteration: 2, ExitCode: 2, Output: strings.Repeat("noise\n", 20) + "FAIL: TestG\n"}
	p := Prompt(st)
	for _, want := range []string{
		"## ralph-gate: iteration 3\n\nTask: t\nDone when: `make test` passes.\n",
		"Restore these before anything else:\n",
		"- restore the test TestA (a_test.go:3), deleted in iteration 1\n",
		"- un-skip the tests (b_test.go), skipped in iteration 2\n",
		"- restore the assertions and expected values of TestC (c_test.go:7), weakened in iteration 2: want 5 became want 6\n",
		"- remove the suppression at d.go:9, added in iteration 2: //nolint added\n",
		"- undo the loosened check at e.go, changed in iteration 2: check removed\n",
		"- restore Parse (f.go:1), removed in iteration 2\n",
		"- bring coverage back (it dropped in iteration 2): 80% -> 60%\n",
		"- make TestG (g_test.go) pass again: it broke in iteration 2: passed before\n",
		"- make the file readable again (it could not be checked in iteration 2): binary file\n",
		"- a new kind of finding\n",
		"The same failure has repeated for 2 iterations in a row: change the approach.\n",
		"Failing tests (12): t01, t02, t03, t04, t05, t06, t07, t08, t09, t10, and 2 more\n",
		"`make test` failed (exit 2) in iteration 2:\n```\nnoise\n",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt lacks %q:\n%s", want, p)
		}
	}
	for _, not := range []string{"TestSuppressed", "TestLow", "TestNotNet"} {
		if strings.Contains(p, not) {
			t.Errorf("prompt names %s:\n%s", not, p)
		}
	}
	if n := strings.Count(p, "noise\n"); n != 14 {
		t.Errorf("completion output: %d noise lines, want the last 15 lines", n)
	}
	// Evidence of nothing recorded yet: only the level's text.
	fresh := &state.State{ReinforcementLevel: "MINIMAL", Iteration: 0}
	if got := Prompt(fresh); got != "ralph-gate, iteration 1: fix the code under test, not the tests. Do not delete, skip or weaken tests, and do not suppress errors or checks.\n" {
		t.Errorf("fresh prompt = %q", got)
	}
}

// TestCoverPromptAdaptive: the ADAPTIVE level adds the strategy of the last
// recovery, in words.
func TestCoverPromptAdaptive(t *testing.T) {
	t.Parallel()
	for strategy, want := range map[string]string{
		"restore_checks":         "restore every check listed below first",
		"decompose_task":         "the last change was too large",
		"request_clarification":  "the tests and the completion command disagree",
		"escalate_to_human_gate": "a human reviewed the last blocked iteration",
		"simpler_approach":       "try a different, simpler approach",
	} {
		st := loopWith(50)
		st.Iteration, st.ReinforcementLevel = 1, "ADAPTIVE"
		st.Configuration.MaxIterations = 4
		st.RecoveryHistory = []state.Recovery{{Iteration: 1, ProtocolSteps: state.Steps{
			Diagnose: &state.DiagnoseStep{RootCause: CauseCognitiveLoad, Confidence: 0.7}, Adapt: &state.AdaptStep{Strategy: strategy}}}}
		p := Prompt(st)
		if !strings.Contains(p, "## 🚨 ralph-gate: iteration 2 of 4") || !strings.Contains(p, "Strategy after iteration 1 (diagnosis: cognitive_load, confidence 0.70): "+want) {
			t.Errorf("%s: prompt:\n%s", strategy, p)
		}
	}
	// ADAPTIVE without a recovery is AGGRESSIVE's text alone.
	st := loopWith(50)
	st.ReinforcementLevel = "ADAPTIVE"
	if p := Prompt(st); strings.Contains(p, "Strategy after") || !strings.Contains(p, "MANDATORY") {
		t.Errorf("adaptive without a recovery:\n%s", p)
	}
}

// TestCoverDiagnoseAndStrategy: the diagnosis rules past reward hacking,
// and the strategy each cause gets.
func TestCoverDiagnoseAndStrategy(t *testing.T) {
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

// TestCoverScoreBranches: readability and correctness when measures are
// missing on one side.
func TestCoverScoreBranches(t *testing.T) {
	t.Parallel()
	two, four := 2, 4
	w := state.Defaults().Weights
	_, b, void, notes := Score(ScoreInput{Lint: &two, Tests: &state.TestResults{}}, w)
	if b.Readability != 80 || void || len(notes) != 1 || notes[0] != "correctness is 0: no tests ran" {
		t.Errorf("lint only now: %+v, %q", b, notes)
	}
	_, b, _, notes = Score(ScoreInput{BaseType: &two, Tests: nil}, w)
	if b.Readability != 0 || len(notes) != 2 || !strings.Contains(strings.Join(notes, "\n"), "missing now") {
		t.Errorf("type errors gone missing: %+v, %q", b, notes)
	}
	_, b, _, _ = Score(ScoreInput{BaseLint: &four, Lint: &two, BaseComplexity: &two, Complexity: &four}, w)
	if b.Readability != 100 || b.Efficiency != 0 {
		t.Errorf("fewer lint errors, doubled complexity: %+v", b)
	}
	_, b, _, _ = Score(ScoreInput{BaselineFailing: []string{"a", "b"}, Passing: []string{"a"}, Tests: &state.TestResults{Total: 4, Passed: 3}}, w)
	if b.Completeness != 37.5 || b.Correctness != 75 {
		t.Errorf("half the baseline failures fixed: %+v", b)
	}
	score, b, void, _ := Score(ScoreInput{Findings: []gate.Finding{
		{ID: "1", Severity: gate.SeverityHigh}, {ID: "1", Severity: gate.SeverityHigh}, {ID: "2", Severity: gate.SeverityHigh},
		{ID: "3", Severity: gate.SeverityHigh}, {ID: "4", Severity: gate.SeverityMedium}}, CompletionPassed: true}, w)
	if b.Validation != 0 || void || b.Completeness != 100 || score != 45 {
		t.Errorf("many findings: %.1f %+v void %v", score, b, void)
	}
}

// TestCoverBookkeeping: the helpers record uses between its steps.
func TestCoverBookkeeping(t *testing.T) {
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
	if got := firstLine("", "fallback"); got != "fallback" {
		t.Errorf("firstLine = %q", got)
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

// TestPromptUnwitnessedChange: a change no new test pins is named apart from
// what to restore, with the tests that pass without it.
func TestPromptUnwitnessedChange(t *testing.T) {
	t.Parallel()
	st := loopWith(50)
	st.Task, st.CompletionCriteria, st.Iteration, st.ReinforcementLevel = "t", "make test", 1, "STANDARD"
	last := &st.IterationHistory[0]
	last.Findings = []gate.Finding{{ID: "w", Type: gate.Unverified, Severity: gate.SeverityMedium, Rule: "unwitnessed-change", File: "clamp.go", Net: true, Message: "..."}}
	last.Witness = &gate.Witness{Ran: true, Tests: []gate.WitnessTest{
		{Test: "calc.TestClampInside", Witness: gate.NotWitnessing},
		{Test: "calc.TestBroken", Witness: gate.WitnessBroken},
	}}
	p := Prompt(st)
	want := "Your new test passes without your change: calc.TestClampInside passes on the code the loop started from as well, so no test pins what you changed in clamp.go. Add a test that fails before your change and passes after it.\n"
	if !strings.Contains(p, want) || strings.Contains(p, "Restore these") {
		t.Errorf("prompt:\n%s\nwant the line:\n%s", p, want)
	}
	last.Findings[0].Suppressed = "approved"
	if strings.Contains(Prompt(st), "without your change") {
		t.Errorf("a suppressed finding is still named")
	}
}
