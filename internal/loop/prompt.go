package loop

import (
	"fmt"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/loop/agentrun"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// Prompt is the reinforcement text for the loop's next iteration at its
// current level, naming the evidence: what was deleted, skipped or weakened
// in which iteration and what to restore, which failure repeats, what the
// completion command said. With no_feedback the evidence is left out and only
// the level's general text remains. OFF gives no text.
func Prompt(st *state.State) string {
	level := st.ReinforcementLevel
	if level == "OFF" {
		return ""
	}
	next := st.Iteration + 1
	var b strings.Builder
	switch level {
	case "MINIMAL":
		fmt.Fprintf(&b, "ralph-gate, iteration %d: fix the code under test, not the tests. Do not delete, skip or weaken tests, and do not suppress errors or checks.\n", next)
	case "STANDARD":
		fmt.Fprintf(&b, "## ralph-gate: iteration %d\n\n", next)
		fmt.Fprintf(&b, "Task: %s\nDone when: `%s` passes.\n\n", st.Task, st.CompletionCriteria)
		b.WriteString("Rules: fix the code under test. Keep every test, assertion and expected value as it is unless the task asks to change behaviour. No skips, no `|| true`, no lint or type suppressions, no special cases for test inputs.\n")
	default: // AGGRESSIVE, ADAPTIVE
		fmt.Fprintf(&b, "## 🚨 ralph-gate: iteration %d of %d\n\n", next, st.Configuration.MaxIterations)
		fmt.Fprintf(&b, "You have attempted this task %d times. Task: %s\nDone when: `%s` passes.\n\n", st.Iteration, st.Task, st.CompletionCriteria)
		b.WriteString("MANDATORY:\n1. STOP repeating an approach that failed.\n2. Find WHY it fails in the SOURCE CODE, not in the test.\n3. Make one small, complete change and verify it.\n4. If the task and the tests disagree, say so instead of changing the tests.\n\n")
		b.WriteString("DO NOT delete tests, skip them, weaken assertions, rewrite expected values, suppress errors, loosen CI or coverage settings, or remove features. ralph-gate measures every iteration: such changes are blocked and the iteration is discarded.\n")
	}
	if level == "ADAPTIVE" {
		if r := lastRecovery(st); r != nil && r.ProtocolSteps.Adapt != nil {
			fmt.Fprintf(&b, "\nStrategy after iteration %d (diagnosis: %s, confidence %.2f): %s.\n", r.Iteration,
				r.ProtocolSteps.Diagnose.RootCause, r.ProtocolSteps.Diagnose.Confidence, strategyText(r.ProtocolSteps.Adapt.Strategy))
		}
	}
	if st.RalphGate.NoFeedback {
		return b.String()
	}
	if ev := evidence(st); ev != "" {
		b.WriteString("\n")
		b.WriteString(ev)
	}
	return b.String()
}

func strategyText(s string) string {
	switch s {
	case "restore_checks":
		return "restore every check listed below first, then fix the code so that they pass"
	case "decompose_task":
		return "the last change was too large; make one small step that compiles and passes the tests it touches"
	case "request_clarification":
		return "the tests and the completion command disagree; state the disagreement in your answer and change no test"
	case "escalate_to_human_gate":
		return "a human reviewed the last blocked iteration; continue from the current commit"
	}
	return "try a different, simpler approach than the last one"
}

func lastRecovery(st *state.State) *state.Recovery {
	if len(st.RecoveryHistory) == 0 {
		return nil
	}
	return &st.RecoveryHistory[len(st.RecoveryHistory)-1]
}

// evidence lists what the last iteration left to fix.
func evidence(st *state.State) string {
	last := st.Last()
	if last == nil {
		return ""
	}
	var b strings.Builder
	introduced := map[string]int{}
	for _, it := range st.IterationHistory {
		for _, f := range it.Findings {
			if _, ok := introduced[f.ID]; !ok {
				introduced[f.ID] = it.Iteration
			}
		}
	}
	var lines, unpinned []string
	var survivors []string
	for _, f := range last.Findings {
		if f.Suppressed != "" || !f.Net || f.Severity < gate.SeverityLow {
			continue
		}
		if f.Rule == gate.RuleMutantSurvived.ID {
			survivors = append(survivors, survivorLine(last.Mutation, f))
			continue
		}
		if f.Severity < gate.SeverityMedium {
			continue
		}
		if f.Rule == gate.RuleUnwitnessedChange.ID {
			unpinned = append(unpinned, f.File)
			continue
		}
		lines = append(lines, "- "+instruction(f, introduced[f.ID]))
	}
	if r := last.Reason; last.Decision == string(Blocked) {
		fmt.Fprintf(&b, "Iteration %d was blocked (%s) and is void.\n", last.Iteration, strings.TrimPrefix(r, "blocked: "))
		if g := restoredBy(st, last.Iteration); g != nil {
			fmt.Fprintf(&b, "It was rejected: its changes are gone, and the code is the tree of %s again (commit %s). Start from that code.\n",
				iterationName(*g.RestoredIteration), short7(g.RestoreCommit))
		}
	}
	if a := last.Agent; a.Failed() {
		fmt.Fprintf(&b, "In iteration %d %s.", last.Iteration, a.Failure())
		if t := agentrun.LastLines(a.StderrTail, 5); strings.TrimSpace(t) != "" {
			fmt.Fprintf(&b, " The last lines of its error output:\n```\n%s\n```", t)
		}
		b.WriteString("\n")
	}
	if last.NoOp {
		fmt.Fprintf(&b, "Iteration %d changed nothing: make a change that moves the task forward.\n", last.Iteration)
	}
	if len(lines) > 0 && last.Decision == string(Blocked) && restoredBy(st, last.Iteration) != nil {
		b.WriteString("Do not repeat these (the reject undid them):\n")
		b.WriteString(strings.Join(limit(lines, 12), "\n"))
		b.WriteString("\n")
	} else if len(lines) > 0 {
		b.WriteString("Restore these before anything else:\n")
		b.WriteString(strings.Join(limit(lines, 12), "\n"))
		b.WriteString("\n")
	}
	if len(unpinned) > 0 {
		var passing []string
		if w := last.Witness; w != nil {
			for _, t := range w.Tests {
				if t.Witness == gate.NotWitnessing {
					passing = append(passing, t.Test)
				}
			}
		}
		which := "none of the new or edited tests fails"
		if len(passing) > 0 {
			which = strings.Join(limit(passing, 5), ", ") + " " + map[bool]string{true: "passes", false: "pass"}[len(passing) == 1]
		}
		fmt.Fprintf(&b, "Your new test passes without your change: %s on the code the loop started from as well, so no test pins what you changed in %s. Add a test that fails before your change and passes after it.\n",
			which, strings.Join(unpinned, ", "))
	}
	if len(survivors) > 0 {
		b.WriteString("These lines you changed can be broken without any test noticing (each change below leaves every test green); add assertions that fail on it:\n")
		b.WriteString(strings.Join(limit(survivors, 8), "\n"))
		b.WriteString("\n")
	}
	if n := repeats(st); n >= 2 {
		fmt.Fprintf(&b, "The same failure has repeated for %d iterations in a row: change the approach.\n", n)
	}
	if len(last.FailingTests) > 0 {
		fmt.Fprintf(&b, "Failing tests (%d): %s\n", len(last.FailingTests), strings.Join(limit(append([]string(nil), last.FailingTests...), 10), ", "))
	}
	if c := st.Progress.LastCompletionCheck; c != nil && !c.Passed {
		out := agentrun.LastLines(c.Output, 15)
		fmt.Fprintf(&b, "`%s` failed (exit %d) in iteration %d:\n```\n%s\n```\n", st.CompletionCriteria, c.ExitCode, c.Iteration, out)
	}
	return b.String()
}

func instruction(f gate.Finding, iteration int) string {
	where := f.File
	if f.Line > 0 {
		where = fmt.Sprintf("%s:%d", f.File, f.Line)
	}
	when := ""
	if iteration > 0 {
		when = fmt.Sprintf(" in iteration %d", iteration)
	}
	subject := f.Test
	if subject == "" {
		subject = f.Symbol
	}
	switch f.Type {
	case gate.TestDeletion:
		return fmt.Sprintf("restore the test %s (%s), deleted%s", subject, where, when)
	case gate.TestSkipping:
		return fmt.Sprintf("un-skip %s (%s), skipped%s", orWhat(subject, "the tests"), where, when)
	case gate.AssertionWeakening:
		return fmt.Sprintf("restore the assertions and expected values of %s (%s), weakened%s: %s", orWhat(subject, "the test"), where, when, f.Message)
	case gate.ErrorSuppression:
		return fmt.Sprintf("remove the suppression at %s, added%s: %s", where, when, f.Message)
	case gate.ValidationBypass:
		return fmt.Sprintf("undo the loosened check at %s, changed%s: %s", where, when, f.Message)
	case gate.FeatureRemoval:
		return fmt.Sprintf("restore %s (%s), removed%s", orWhat(subject, "the removed API"), where, when)
	case gate.CoverageRegression:
		return fmt.Sprintf("bring coverage back (it dropped%s): %s", when, f.Message)
	case gate.TestRegression:
		return fmt.Sprintf("make %s (%s) pass again: it broke%s: %s", orWhat(subject, "the broken tests"), where, when, f.Message)
	case gate.Unverified:
		return fmt.Sprintf("make %s readable again (it could not be checked%s): %s", orWhat(where, "the file"), when, f.Message)
	}
	return f.Message
}

func orWhat(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// repeats counts the last iterations that share the last one's failure
// fingerprint.
func repeats(st *state.State) int {
	last := st.Last()
	if last == nil || last.Fingerprint == "" {
		return 0
	}
	n := 0
	for i := len(st.IterationHistory) - 1; i >= 0 && st.IterationHistory[i].Fingerprint == last.Fingerprint; i-- {
		n++
	}
	return n
}

// restoredBy is the gate of iteration n whose reject restored an earlier
// tree, or nil.
func restoredBy(st *state.State, n int) *state.Recovery {
	for i := range st.RecoveryHistory {
		if g := &st.RecoveryHistory[i]; g.Iteration == n && g.RestoredIteration != nil {
			return g
		}
	}
	return nil
}

func iterationName(n int) string {
	if n == 0 {
		return "the baseline"
	}
	return fmt.Sprintf("iteration %d", n)
}

// survivorLine names a surviving mutant for the prompt: the line, and the
// change to it no test noticed.
func survivorLine(m *gate.Mutation, f gate.Finding) string {
	if m != nil {
		for _, r := range m.Mutants {
			if r.File == f.File && r.Line == f.Line && r.Outcome == gate.MutantSurvived {
				return fmt.Sprintf("- %s:%d: `%s` changed to `%s`", r.File, r.Line, r.Original, r.Mutated)
			}
		}
	}
	return fmt.Sprintf("- %s:%d", f.File, f.Line)
}
