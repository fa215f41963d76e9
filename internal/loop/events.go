package loop

import (
	"fmt"
	"sort"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// regressionEvents groups an iteration's regressions by type, one event per
// type with the worst severity and every finding as detail.
func regressionEvents(now time.Time, n int, fs []gate.Finding, st *state.State, m gate.Metrics) []state.Regression {
	byType := map[gate.FindingType][]gate.Finding{}
	for _, f := range fs {
		if f.Severity >= gate.SeverityMedium {
			byType[f.Type] = append(byType[f.Type], f)
		}
	}
	var out []state.Regression
	for _, t := range gate.FindingTypes {
		list := byType[t]
		if len(list) == 0 {
			continue
		}
		sev := gate.SeverityLow
		var ids, described, tests []string
		for _, f := range list {
			if f.Severity > sev {
				sev = f.Severity
			}
			ids = append(ids, f.ID)
			described = append(described, describe(f)+": "+f.Message)
			switch {
			case f.Test != "" && f.File != "":
				tests = append(tests, f.File+": "+f.Test)
			case f.Test != "":
				tests = append(tests, f.Test)
			}
		}
		sort.Strings(tests)
		ev := state.Regression{
			EventID: state.NewUUID(), Timestamp: now, Iteration: n, RegressionType: string(gate.AIWGType(t)), Severity: sev.String(),
			Details:    state.RegressionDiff{Diff: map[string]any{"findings": described}, RalphGateType: string(t)},
			FindingIDs: ids,
		}
		if len(tests) > 0 {
			key := "tests"
			switch t {
			case gate.TestDeletion:
				key = "deleted_tests"
			case gate.TestSkipping:
				key = "skipped_tests"
			case gate.AssertionWeakening:
				key = "weakened_tests"
			}
			ev.Details.Diff[key] = tests
		}
		switch t {
		case gate.TestDeletion, gate.TestSkipping:
			if m.TestCount != nil && st.BaselineMetrics.CustomMetrics["test_count_measured"] == nil {
				ev.Details.BaselineValue, ev.Details.CurrentValue = st.BaselineMetrics.TestCount, *m.TestCount
			}
		case gate.CoverageRegression:
			if m.CoveragePercentage != nil && st.RalphGate.BaselineCoverage != nil {
				ev.Details.BaselineValue, ev.Details.CurrentValue = *st.RalphGate.BaselineCoverage, *m.CoveragePercentage
			}
		}
		out = append(out, ev)
	}
	return out
}

// logRecord appends record's hook points to hook-log.jsonl.
func logRecord(s *state.Store, st *state.State, out *Outcome, now time.Time, levelWhy string) {
	it := out.Iteration
	_ = s.AppendLog(st.LoopID, hookEntry(now, "post_iteration", st, it.Iteration, []string{
		fmt.Sprintf("quality %.1f (%+.1f)", it.QualityScore, it.QualityDelta),
		fmt.Sprintf("%d findings", len(it.Findings)), it.Reason,
	}))
	if it.Regression {
		var outs []string
		for _, ev := range st.RegressionEvents {
			if ev.Iteration == it.Iteration {
				outs = append(outs, fmt.Sprintf("%s %s (%s)", ev.EventID, ev.RegressionType, ev.Severity))
			}
		}
		_ = s.AppendLog(st.LoopID, hookEntry(now, "regression_detected", st, it.Iteration, outs))
	}
	if out.Decision == Blocked && len(st.RecoveryHistory) > 0 {
		r := st.RecoveryHistory[len(st.RecoveryHistory)-1]
		hook := "regression_detected"
		if len(r.Trigger) > 5 && r.Trigger[:5] == "stuck" {
			hook = "stuck_loop_detected"
		}
		_ = s.AppendLog(st.LoopID, hookEntry(now, hook, st, it.Iteration, []string{"human gate " + r.RecoveryID + ": " + r.ProtocolSteps.Escalate.Reason}))
	}
	if levelWhy != "" {
		_ = s.AppendLog(st.LoopID, hookEntry(now, "reinforcement_escalation", st, it.Iteration, []string{levelWhy}))
	}
	if out.Decision == Stopped {
		_ = s.AppendLog(st.LoopID, hookEntry(now, "loop_complete", st, it.Iteration, []string{st.RalphGate.StopReason}))
	}
}
