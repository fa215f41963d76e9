package loop

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"sort"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/loop/agentrun"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// Root causes the diagnose step names (persistence hooks' DIAGNOSE).
const (
	CauseRewardHacking = "reward_hacking"
	CauseCognitiveLoad = "cognitive_load"
	CauseComplexity    = "task_complexity"
	CauseAmbiguity     = "specification_ambiguity"
)

// Evidence is what the diagnosis reads.
type Evidence struct {
	Findings []gate.Finding
	// ChangedFiles and ChangedLines measure the iteration's diff.
	ChangedFiles, ChangedLines int
	// FailStreak counts the iterations in a row (this one included) whose
	// completion command failed.
	FailStreak int
	// CompletionPassed, TestsFailing: the iteration's results.
	CompletionPassed bool
	TestsFailing     int
	TestsMeasured    bool
	// AgentFailure says how the agent failed in the iteration (on_error:
	// exit status, timeout), "" when it did not or is not known.
	AgentFailure string
}

// Diagnosis is the root cause with its confidence and the evidence for it.
type Diagnosis struct {
	Cause      string
	Confidence float64
	Evidence   []string
}

// Diagnose applies the rules, strongest evidence first: deleted, skipped or
// weakened tests and suppressed checks are reward hacking; a very large diff
// is cognitive load; the same failure again and again is task complexity;
// tests and the completion command that disagree are specification
// ambiguity.
func Diagnose(ev Evidence) Diagnosis {
	var hack []string
	conf := 0.0
	for _, f := range ev.Findings {
		c := 0.0
		switch f.Type {
		case gate.TestDeletion, gate.TestSkipping, gate.AssertionWeakening:
			c = 0.9
			if f.Evidence == gate.EvidenceHistory || f.Severity == gate.SeverityCritical {
				c = 0.95
			}
		case gate.ErrorSuppression, gate.ValidationBypass:
			c = 0.85
		case gate.FeatureRemoval:
			c = 0.7
		case gate.CoverageRegression:
			c = 0.6
		case gate.Unverified:
			c = 0.5
		}
		if c > 0 {
			hack = append(hack, describe(f))
			if c > conf {
				conf = c
			}
		}
	}
	if len(hack) > 0 {
		return Diagnosis{CauseRewardHacking, conf, limit(hack, 8)}
	}
	if ev.ChangedLines > 1000 || ev.ChangedFiles > 30 {
		return Diagnosis{CauseCognitiveLoad, 0.7, []string{fmt.Sprintf("the iteration changed %d lines in %d files", ev.ChangedLines, ev.ChangedFiles)}}
	}
	if ev.CompletionPassed && ev.TestsMeasured && ev.TestsFailing > 0 {
		return Diagnosis{CauseAmbiguity, 0.5, []string{fmt.Sprintf("the completion command passes while %d tests fail", ev.TestsFailing)}}
	}
	if !ev.CompletionPassed && ev.TestsMeasured && ev.TestsFailing == 0 {
		return Diagnosis{CauseAmbiguity, 0.5, []string{"every test passes while the completion command fails"}}
	}
	if ev.AgentFailure != "" {
		return Diagnosis{CauseComplexity, 0.6, []string{ev.AgentFailure}}
	}
	if ev.FailStreak >= 2 {
		return Diagnosis{CauseComplexity, 0.6, []string{fmt.Sprintf("the completion command failed %d iterations in a row", ev.FailStreak)}}
	}
	return Diagnosis{CauseComplexity, 0.3, []string{"no stronger evidence"}}
}

// Strategy is the adapt step's answer to a diagnosis.
func Strategy(cause string) (string, []string) {
	switch cause {
	case CauseRewardHacking:
		return "restore_checks", []string{"reinforcement raised", "the next prompt names every check to restore"}
	case CauseCognitiveLoad:
		return "decompose_task", []string{"the next prompt asks for one small, complete step"}
	case CauseAmbiguity:
		return "request_clarification", []string{"the next prompt asks the agent to state how the tests and the task disagree"}
	default:
		return "simpler_approach", []string{"the next prompt asks for a different, simpler approach"}
	}
}

func describe(f gate.Finding) string {
	where := f.File
	if f.Line > 0 {
		where = fmt.Sprintf("%s:%d", f.File, f.Line)
	}
	subject := f.Test
	if subject == "" {
		subject = f.Symbol
	}
	if subject != "" {
		return fmt.Sprintf("%s (%s) %s in %s", f.Type, f.Severity, subject, where)
	}
	return fmt.Sprintf("%s (%s) in %s", f.Type, f.Severity, where)
}

func limit(s []string, n int) []string {
	if len(s) > n {
		return append(s[:n:n], fmt.Sprintf("and %d more", len(s)-n))
	}
	return s
}

var digits = lazyre.New(`[0-9]+(\.[0-9]+)?`)

// Fingerprint identifies a failure so that the same failure in consecutive
// iterations is recognized: the failing tests and the completion command's
// exit code and output with numbers (times, counts, addresses) blanked.
// It is empty when nothing failed.
func Fingerprint(failing []string, check *state.CompletionCheck) string {
	if check != nil && check.Passed && len(failing) == 0 {
		return ""
	}
	if check == nil && len(failing) == 0 {
		return ""
	}
	ids := append([]string(nil), failing...)
	sort.Strings(ids)
	h := sha256.New()
	for _, id := range ids {
		fmt.Fprintf(h, "t:%s\x00", id)
	}
	if check != nil && !check.Passed {
		fmt.Fprintf(h, "c:%d\x00%s", check.ExitCode, digits.ReplaceAllString(check.Output, "N"))
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// FingerprintRun is Fingerprint with the agent's failure (on_error) in it:
// the same exit status or timeout with the same last lines of standard
// error, digits normalized, is the same failure. A run without agent
// failure has the plain Fingerprint.
func FingerprintRun(failing []string, check *state.CompletionCheck, agent *state.AgentRun) string {
	fp := Fingerprint(failing, check)
	if !agent.Failed() {
		return fp
	}
	h := sha256.New()
	fmt.Fprintf(h, "f:%s\x00a:%d:%t:%t\x00%s", fp, agent.ExitCode, agent.TimedOut, agent.StartErr != "", digits.ReplaceAllString(agentrun.LastLines(agent.StderrTail, 5), "N"))
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// levelRank orders the reinforcement levels; ADAPTIVE is the most specific:
// AGGRESSIVE plus the recovery strategy.
var levelRank = map[string]int{"OFF": 0, "MINIMAL": 1, "STANDARD": 2, "AGGRESSIVE": 3, "ADAPTIVE": 4}

// NextLevel is the reinforcement level for the iteration after cur, and why
// it changed (empty when it did not). Levels only escalate; OFF stays off.
func NextLevel(st *state.State, cur *state.Iteration, recovering bool) (string, string) {
	level := st.ReinforcementLevel
	if level == "OFF" {
		return level, ""
	}
	set := st.RalphGate.Settings
	target, reason := level, ""
	raise := func(l, why string) {
		if levelRank[l] > levelRank[target] {
			target, reason = l, why
		}
	}
	next := cur.Iteration + 1
	ns := make([]int, 0, len(set.Escalation))
	for n := range set.Escalation {
		ns = append(ns, n)
	}
	sort.Ints(ns)
	for _, n := range ns {
		if next >= n {
			raise(set.Escalation[n], fmt.Sprintf("Iteration %d threshold reached", n))
		}
	}
	if w := set.PlateauWindow; w > 0 && len(st.IterationHistory) >= w {
		flat := true
		for _, it := range st.IterationHistory[len(st.IterationHistory)-w:] {
			if it.QualityDelta >= set.ImprovementStop {
				flat = false
			}
		}
		if flat {
			raise(set.PlateauEscalation, fmt.Sprintf("Quality plateau detected (%d iterations < %.0f points delta)", w, set.ImprovementStop))
		}
	}
	if cur.Regression {
		raise("AGGRESSIVE", fmt.Sprintf("Regression detected in iteration %d", cur.Iteration))
	}
	if recovering {
		raise("ADAPTIVE", fmt.Sprintf("Recovery in progress after iteration %d: the prompt carries the adapted strategy", cur.Iteration))
	}
	return target, reason
}

// recoveryStep builds a PDARE record for a regression or a stuck loop.
func recoveryStep(now time.Time, iteration, attempt int, trigger string, d Diagnosis, escalate string) state.Recovery {
	strategy, changes := Strategy(d.Cause)
	r := state.Recovery{
		RecoveryID: state.NewUUID(), Timestamp: now, Iteration: iteration, Trigger: trigger, Attempt: attempt,
		ProtocolSteps: state.Steps{
			Pause: &state.PauseStep{ExecutedAt: now, Actions: []string{
				fmt.Sprintf("iteration %d tagged and kept; nothing reverted or deleted", iteration),
				"loop paused for recovery",
			}},
			Diagnose: &state.DiagnoseStep{ExecutedAt: now, RootCause: d.Cause, Confidence: d.Confidence, Evidence: d.Evidence},
			Adapt:    &state.AdaptStep{ExecutedAt: now, Strategy: strategy, ChangesMade: changes},
		},
		Outcome: "failed",
	}
	if escalate != "" {
		r.ProtocolSteps.Adapt.Strategy = "escalate_to_human_gate"
		r.ProtocolSteps.Escalate = &state.EscalateStep{ExecutedAt: now, Reason: escalate}
		r.Outcome = "escalated"
	} else {
		r.ProtocolSteps.Pause.Actions = append(r.ProtocolSteps.Pause.Actions, "loop resumed for a retry with the adapted strategy")
		r.ProtocolSteps.Retry = &state.RetryStep{ExecutedAt: now, RetryIteration: iteration + 1}
	}
	return r
}
