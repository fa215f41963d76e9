package loop

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// TestRegressionEvents: one event per finding type, with the worst
// severity, the tests under the type's key, and the measured values.
func TestRegressionEvents(t *testing.T) {
	t.Parallel()
	cnt := 7
	st := &state.State{BaselineMetrics: state.Baseline{TestCount: 9, CustomMetrics: map[string]any{}}, RalphGate: state.Extra{BaselineCoverage: floatPtr(80)}}
	m := gate.Metrics{TestCount: &cnt, CoveragePercentage: floatPtr(70)}
	fs := []gate.Finding{
		{ID: "a", Type: gate.TestSkipping, Severity: gate.SeverityMedium, File: "a_test.go", Test: "TestA", Message: "skipped"},
		{ID: "b", Type: gate.TestSkipping, Severity: gate.SeverityHigh, Test: "TestB", Message: "skipped"},
		{ID: "c", Type: gate.AssertionWeakening, Severity: gate.SeverityHigh, File: "c_test.go", Test: "TestC", Line: 3, Message: "weaker"},
		{ID: "d", Type: gate.CoverageRegression, Severity: gate.SeverityHigh, Message: "coverage fell"},
		{ID: "e", Type: gate.TestRegression, Severity: gate.SeverityHigh, Test: "TestE", Message: "fails"},
		{ID: "f", Type: gate.ErrorSuppression, Severity: gate.SeverityLow, Message: "ignored: low"},
	}
	evs := regressionEvents(fixedT0, 4, fs, st, m)
	if len(evs) != 4 {
		t.Fatalf("events = %+v", evs)
	}
	byType := map[string]state.Regression{}
	for _, ev := range evs {
		byType[ev.Details.RalphGateType] = ev
		if ev.Iteration != 4 || len(ev.EventID) != 36 {
			t.Errorf("event %+v", ev)
		}
	}
	sk := byType[string(gate.TestSkipping)]
	if sk.Severity != "high" || cmp.Diff([]string{"TestB", "a_test.go: TestA"}, sk.Details.Diff["skipped_tests"]) != "" ||
		sk.Details.BaselineValue != 9 || sk.Details.CurrentValue != 7 || cmp.Diff([]string{"a", "b"}, sk.FindingIDs) != "" {
		t.Errorf("skipping event = %+v", sk)
	}
	if aw := byType[string(gate.AssertionWeakening)]; aw.Details.Diff["weakened_tests"] == nil {
		t.Errorf("weakening event = %+v", aw)
	}
	if cv := byType[string(gate.CoverageRegression)]; cv.Details.BaselineValue != 80.0 || cv.Details.CurrentValue != 70.0 {
		t.Errorf("coverage event = %+v", cv)
	}
	if tr := byType[string(gate.TestRegression)]; tr.RegressionType != string(gate.FeatureRemoval) || tr.Details.Diff["tests"] == nil {
		t.Errorf("test regression event = %+v", tr)
	}
	if _, err := readLog(state.NewStore(t.TempDir()), "ralph-none-00000000"); err == nil {
		t.Error("readLog of a missing log: no error")
	}
	if got := strs(42); got != nil {
		t.Errorf("strs(42) = %v", got)
	}
}
