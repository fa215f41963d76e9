package loop

import (
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// TestPromptInstructions: the evidence names what to restore for each
// finding type, in the iteration that introduced it; suppressed, low and
// non-net findings are left out.
func TestPromptInstructions(t *testing.T) {
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

// TestPromptAdaptive: the ADAPTIVE level adds the strategy of the last
// recovery, in words.
func TestPromptAdaptive(t *testing.T) {
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
