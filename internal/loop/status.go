package loop

import (
	"fmt"
	"io"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// Sections of the status output.
type Sections struct {
	Persistence, Regressions, Quality bool
}

// All reports whether no section was picked (show everything).
func (s Sections) All() bool { return !s.Persistence && !s.Regressions && !s.Quality }

// EffectiveStatus is the status to show: crashed when the controlling
// process died while the loop ran.
func EffectiveStatus(st *state.State) state.Status {
	if crashed(st) {
		return state.StatusCrashed
	}
	return st.Status
}

// WriteStatus writes the seeds' status views.
func WriteStatus(w io.Writer, st *state.State, sec Sections) error {
	var b strings.Builder
	if sec.All() {
		status := EffectiveStatus(st)
		fmt.Fprintf(&b, "Loop %s: %s, iteration %d of %d\n", st.LoopID, status, st.Iteration, st.Configuration.MaxIterations)
		if status == state.StatusCrashed {
			fmt.Fprintf(&b, "  its controlling process (pid %d) is gone: abort it, or run record from the loop again to take it over\n", *st.PID)
		}
		fmt.Fprintf(&b, "Task: %s\nCompletion: %s\n", st.Task, st.CompletionCriteria)
		if c := st.Progress.LastCompletionCheck; c != nil {
			fmt.Fprintf(&b, "Last completion check: %s at iteration %d\n", passFail(c.Passed), c.Iteration)
		}
		if st.RalphGate.StopReason != "" {
			fmt.Fprintf(&b, "Stopped: %s\n", st.RalphGate.StopReason)
		}
		if p := limitExceeded(st); p != nil {
			fmt.Fprintf(&b, "Detected: %s\n", limitLine(p))
		}
		for _, g := range st.PendingGates() {
			fmt.Fprintf(&b, "Waiting for a human decision on iteration %d (gate %s): %s\n  ralph-gate approve | reject | abort --loop %s\n",
				g.Iteration, g.RecoveryID, g.ProtocolSteps.Escalate.Reason, st.LoopID)
		}
		b.WriteString("\n")
	}
	if sec.All() || sec.Persistence {
		writePersistence(&b, st)
	}
	if sec.All() || sec.Regressions {
		if sec.All() {
			b.WriteString("\n")
		}
		writeRegressions(&b, st)
	}
	if sec.All() || sec.Quality {
		if sec.All() {
			b.WriteString("\n")
		}
		writeQuality(&b, st)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writePersistence(b *strings.Builder, st *state.State) {
	b.WriteString("Persistence Metrics:\n")
	bm := st.BaselineMetrics
	base := []string{}
	if bm.CustomMetrics["test_count_measured"] == nil {
		base = append(base, fmt.Sprintf("%d tests", bm.TestCount))
	}
	if bm.CustomMetrics["coverage_measured"] == nil {
		base = append(base, fmt.Sprintf("%.1f%% coverage", bm.CoveragePercentage))
	}
	if bm.TypescriptErrors != nil {
		base = append(base, fmt.Sprintf("%d TS errors", *bm.TypescriptErrors))
	}
	if bm.LintErrors != nil {
		base = append(base, fmt.Sprintf("%d lint errors", *bm.LintErrors))
	}
	base = append(base, fmt.Sprintf("%d files, %d lines", bm.FileCount, bm.LinesOfCode))
	fmt.Fprintf(b, "  Baseline Metrics: %s\n", strings.Join(base, ", "))
	if last := st.Last(); last != nil {
		m := last.MetricsSnapshot
		var cur []string
		if m.TestCount != nil {
			cur = append(cur, fmt.Sprintf("%d tests", *m.TestCount))
		}
		if m.CoveragePercentage != nil {
			cur = append(cur, fmt.Sprintf("%.1f%% coverage", *m.CoveragePercentage))
		}
		if m.TypescriptErrors != nil {
			cur = append(cur, fmt.Sprintf("%d TS errors", *m.TypescriptErrors))
		}
		if m.LintErrors != nil {
			cur = append(cur, fmt.Sprintf("%d lint errors", *m.LintErrors))
		}
		if m.FileCount != nil && m.LinesOfCode != nil {
			cur = append(cur, fmt.Sprintf("%d files, %d lines", *m.FileCount, *m.LinesOfCode))
		}
		fmt.Fprintf(b, "  Current Metrics: %s\n", strings.Join(cur, ", "))
	}
	counts := map[string]int{}
	var crit []string
	for _, ev := range st.RegressionEvents {
		counts[ev.Severity]++
		if ev.Severity == "critical" {
			crit = append(crit, ev.RegressionType)
		}
	}
	re := fmt.Sprintf("%d", len(st.RegressionEvents))
	if len(crit) > 0 {
		re += fmt.Sprintf(" (critical: %s)", strings.Join(crit, ", "))
	}
	fmt.Fprintf(b, "  Regression Events: %s\n", re)
	fmt.Fprintf(b, "  Reinforcement Level: %s\n", st.ReinforcementLevel)
	fmt.Fprintf(b, "  Recovery Attempts: %d\n", st.RecoveryAttempts)
	if st.BestIteration != nil {
		fmt.Fprintf(b, "  Best Iteration: %d (quality: %.1f%%)\n", st.BestIteration.Iteration, st.BestIteration.QualityScore)
	} else {
		b.WriteString("  Best Iteration: none yet\n")
	}
	if last := st.Last(); last != nil {
		void := ""
		if last.Void {
			void = ", void"
		}
		fmt.Fprintf(b, "  Current Iteration: %d (quality: %.1f%%%s)\n", last.Iteration, last.QualityScore, void)
	}
	writeToolCalls(b, st)
	pm := st.PersistenceMetrics
	fmt.Fprintf(b, "  Detection Latency: p95 %d ms, p99 %d ms (commit landed or tool call -> finding)\n", pm.DetectionLatencyP95MS, pm.DetectionLatencyP99MS)
	if pm.IntegrationOverheadPct != nil {
		fmt.Fprintf(b, "  Integration Overhead: %.1f%% of the agent's time\n", *pm.IntegrationOverheadPct)
	}
	fp := fmt.Sprintf("  Detections: %d true, %d false positive(s)", pm.TruePositiveCount, pm.FalsePositiveCount)
	if pm.FalsePositiveRate != nil {
		fp += fmt.Sprintf(" (rate %.3f)", *pm.FalsePositiveRate)
	}
	b.WriteString(fp + "; mark one with: ralph-gate status --mark-fp ID --by NAME\n")
	if t, c := UsageTotals(st); t != nil || c != nil {
		var parts []string
		if t != nil {
			parts = append(parts, fmt.Sprintf("%d tokens", *t))
		}
		if c != nil {
			parts = append(parts, fmt.Sprintf("$%.4f", *c))
		}
		fmt.Fprintf(b, "  Agent Usage: %s\n", strings.Join(parts, ", "))
	}
}

func writeRegressions(b *strings.Builder, st *state.State) {
	b.WriteString("Regression Events:\n")
	if len(st.RegressionEvents) == 0 {
		b.WriteString("  none\n")
		return
	}
	for _, ev := range st.RegressionEvents {
		fmt.Fprintf(b, "  [%s] Iteration %d - %s (%s)\n", short8(ev.EventID), ev.Iteration, ev.RegressionType, strings.ToUpper(ev.Severity))
		for _, key := range []string{"deleted_tests", "skipped_tests", "weakened_tests", "tests"} {
			if ts := strs(ev.Details.Diff[key]); len(ts) > 0 {
				fmt.Fprintf(b, "    - %d %s: %s\n", len(ts), strings.ReplaceAll(key, "_", " "), strings.Join(limit(ts, 5), "; "))
			}
		}
		rec := "none"
		if ev.RecoveryInvoked {
			rec = "in progress"
			if ev.RecoveryOutcome != nil {
				rec = *ev.RecoveryOutcome
			}
		}
		if ev.HumanDecision != nil {
			rec += ", human " + pastTense(*ev.HumanDecision)
		} else if ev.HumanGateInvoked {
			rec += ", waiting for a human decision"
		}
		fmt.Fprintf(b, "    - Recovery: %s\n", rec)
		if ev.RestoredIteration != nil {
			fmt.Fprintf(b, "    - Reverted to iteration %d (commit %s)\n", *ev.RestoredIteration, short7(ev.RestoreCommit))
		}
	}
}

func pastTense(d string) string {
	switch d {
	case DecisionApprove:
		return "approved"
	case DecisionReject:
		return "rejected"
	case DecisionAbort:
		return "aborted"
	}
	return d
}

func short7(s string) string {
	if len(s) > 7 {
		return s[:7]
	}
	return s
}

func writeQuality(b *strings.Builder, st *state.State) {
	b.WriteString("Quality Trajectory:\n")
	if len(st.IterationHistory) == 0 {
		b.WriteString("  no iteration recorded yet\n")
		return
	}
	best := 0
	if st.BestIteration != nil {
		best = st.BestIteration.Iteration
	}
	for _, it := range st.IterationHistory {
		var marks []string
		if it.Iteration == best {
			marks = append(marks, "BEST")
		}
		if it.Regression || it.Void {
			marks = append(marks, "REGRESSION")
		}
		if it.Void {
			marks = append(marks, "VOID")
		}
		mark := ""
		if len(marks) > 0 {
			mark = " ⬅ " + strings.Join(marks, ", ")
		}
		fmt.Fprintf(b, "  Iteration %d: %5.1f%% %s%s\n", it.Iteration, it.QualityScore, Bar(it.QualityScore, 20, "░"), mark)
	}
}

// WriteList writes one line per loop for status --all.
func WriteList(w io.Writer, states []*state.State) error {
	var b strings.Builder
	if len(states) == 0 {
		b.WriteString("no loops in this repository (start one with ralph-gate start)\n")
	}
	for _, st := range states {
		best := "-"
		if st.BestIteration != nil {
			best = fmt.Sprintf("%d (%.1f)", st.BestIteration.Iteration, st.BestIteration.QualityScore)
		}
		fmt.Fprintf(&b, "%-40s %-10s iteration %3d/%-3d best %-12s %s\n", st.LoopID, EffectiveStatus(st), st.Iteration,
			st.Configuration.MaxIterations, best, state.Summary(st.Task))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// strs reads a list of strings from a details value (a []string when made,
// a []any when read back from state.json).
func strs(v any) []string {
	switch x := v.(type) {
	case []string:
		return x
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			out = append(out, fmt.Sprint(e))
		}
		return out
	}
	return nil
}

// short8 is an id's first 8 characters (the whole id when shorter).
func short8(s string) string {
	if len(s) > 8 {
		return s[:8]
	}
	return s
}
