package loop

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

var cvT0 = time.Date(2025, 3, 4, 10, 0, 0, 0, time.UTC)

func cvF(v float64) *float64 { return &v }

// cvViewState is a loop of three iterations as status and analytics see
// it: measured tests, lint, coverage and complexity, a blocked iteration 2
// that was rejected, and a tool-call log in dir.
func cvViewState(t *testing.T, dir string) *state.State {
	t.Helper()
	ten, twenty, three, one, two := 10, 20, 3, 1, 2
	files, lines := 4, 120
	complexity := 8
	id := "ralph-view-loop-0a0b0c0d"
	st := &state.State{
		Version: state.StateVersion, LoopID: id, Status: state.StatusRunning, Iteration: 3, Task: "make  the\n tests pass",
		CompletionCriteria: "go test ./...", StartedAt: cvT0, LastUpdated: cvT0.Add(30 * time.Minute), WorkingDirectory: dir,
		Configuration:      state.Configuration{MaxIterations: 10},
		ReinforcementLevel: "STANDARD", RecoveryAttempts: 1,
		BaselineMetrics: state.Baseline{TestCount: 10, CoveragePercentage: 61.25, TypescriptErrors: &three, LintErrors: &one,
			FileCount: 3, LinesOfCode: 100, CustomMetrics: map[string]any{}},
		RalphGate: state.Extra{BaselineScore: 40, BaselineTests: &state.TestResults{Total: 10, Passed: 8, Failed: 2}, BaselineCoverage: cvF(61.25),
			BaselineComplexity: &complexity, Settings: state.Defaults()},
	}
	st.Progress.LastCompletionCheck = &state.CompletionCheck{Iteration: 3, Passed: false}
	mk := func(n int, score, delta float64, void, regression bool, tr *state.TestResults, m gate.Metrics) state.Iteration {
		return state.Iteration{Iteration: n, Timestamp: cvT0.Add(time.Duration(n) * 10 * time.Minute), QualityScore: score, QualityDelta: delta,
			Void: void, Regression: regression, TestResults: tr, MetricsSnapshot: m, Tag: TagName(id, n), Decision: "continue",
			SnapshotPath: SnapshotPath(id, n)}
	}
	c2 := 12
	tokens, cost := 100, 0.5
	it1 := mk(1, 60, 20, false, false, &state.TestResults{Total: 10, Passed: 9, Failed: 1}, gate.Metrics{TestCount: &ten, CoveragePercentage: cvF(70), LintErrors: &two, TypescriptErrors: &one, Complexity: &complexity, FileCount: &files, LinesOfCode: &lines})
	it1.TokensUsed, it1.TokenCostUSD = &tokens, &cost
	it2 := mk(2, 0, -60, true, true, &state.TestResults{Total: 9, Passed: 9}, gate.Metrics{TestCount: &twenty})
	it2.Decision = "blocked"
	it3 := mk(3, 58, 58, false, false, &state.TestResults{Total: 10, Passed: 10}, gate.Metrics{TestCount: &ten, CoveragePercentage: cvF(72.5), LintErrors: &one, Complexity: &c2, FileCount: &files, LinesOfCode: &lines})
	it3.Verified = false
	st.IterationHistory = []state.Iteration{it1, it2, it3}
	st.BestIteration = &state.Best{Iteration: 1, QualityScore: 60}
	rejected := DecisionReject
	escalated := "escalated"
	restored := 1
	st.RegressionEvents = []state.Regression{{
		EventID: "0123456789abcdef", Iteration: 2, RegressionType: string(gate.TestDeletion), Severity: "critical",
		Details:         state.RegressionDiff{Diff: map[string]any{"deleted_tests": []any{"a_test.go: TestA", "a_test.go: TestB"}, "findings": []string{"x"}}},
		RecoveryInvoked: true, RecoveryOutcome: &escalated, HumanGateInvoked: true, HumanDecision: &rejected,
		RestoredIteration: &restored, RestoreCommit: "abcdef0123456789",
	}, {
		EventID: "fedcba9876543210", Iteration: 3, RegressionType: string(gate.CoverageRegression), Severity: "high",
		Details: state.RegressionDiff{Diff: map[string]any{"tests": []string{"TestC"}}}, HumanGateInvoked: true,
	}}
	st.PersistenceMetrics = state.PersistMetrics{DetectionLatencyP95MS: 120, DetectionLatencyP99MS: 150, IntegrationOverheadPct: cvF(12.5),
		TruePositiveCount: 3, FalsePositiveCount: 1, FalsePositiveRate: cvF(0.25)}
	return st
}

// TestCoverWriteStatus: every section of the status view, and each alone.
func TestCoverWriteStatus(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	st := cvViewState(t, dir)
	s := state.NewStore(dir)
	if err := os.MkdirAll(s.LoopDir(st.LoopID), 0o755); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("x", 100)
	for _, c := range []state.ToolCall{
		{Tool: "Edit", File: "calc.go"},
		{Tool: "Edit", File: "calc_test.go", Risky: true, Risk: "test_file_modification"},
		{Tool: "Bash", Command: "rm -rf " + long, Risky: true, Risk: "bulk_deletion"},
		{Tool: "Stop", Event: state.EventStopBlocked},
		{Tool: "Stop", Event: state.EventStopReleased, Timestamp: cvT0},
		{Tool: "Bash", Event: state.EventDenied, LatencyMS: 7},
		{Tool: "Other", Event: "unknown event"},
	} {
		if err := s.AppendToolCall(st.LoopID, c); err != nil {
			t.Fatal(err)
		}
	}
	var b strings.Builder
	if err := WriteStatus(&b, st, Sections{}); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, want := range []string{
		"Loop ralph-view-loop-0a0b0c0d: running, iteration 3 of 10\n",
		"Task: make  the\n tests pass\nCompletion: go test ./...\n",
		"Last completion check: failed at iteration 3\n",
		"  Baseline Metrics: 10 tests, 61.2% coverage, 3 TS errors, 1 lint errors, 3 files, 100 lines\n",
		"  Current Metrics: 10 tests, 72.5% coverage, 1 lint errors, 4 files, 120 lines\n",
		"  Regression Events: 2 (critical: test_deletion)\n",
		"  Reinforcement Level: STANDARD\n",
		"  Recovery Attempts: 1\n",
		"  Best Iteration: 1 (quality: 60.0%)\n",
		"  Current Iteration: 3 (quality: 58.0%)\n",
		"  Tool Calls: 3 (Bash 1, Edit 2)\n",
		"  Risky Actions: 2 (bulk_deletion 1, test_file_modification 1); last: Bash rm -rf " + strings.Repeat("x", 73) + "...\n",
		"  Denied Tool Calls: 1 (decided in p95 7 ms)\n",
		"  Stop Hook: blocked 1 time(s); let the agent stop 1 time(s) with the work still failing (last 2025-03-04T10:00:00Z): look at it\n",
		"  Detection Latency: p95 120 ms, p99 150 ms",
		"  Integration Overhead: 12.5% of the agent's time\n",
		"  Detections: 3 true, 1 false positive(s) (rate 0.250)",
		"  Agent Usage: 100 tokens, $0.5000\n",
		"Regression Events:\n  [01234567] Iteration 2 - test_deletion (CRITICAL)\n    - 2 deleted tests: a_test.go: TestA; a_test.go: TestB\n    - Recovery: escalated, human rejected\n    - Reverted to iteration 1 (commit abcdef0)\n",
		"  [fedcba98] Iteration 3 - coverage_regression (HIGH)\n    - 1 tests: TestC\n    - Recovery: none, waiting for a human decision\n",
		"Quality Trajectory:\n  Iteration 1:  60.0% ████████████ ⬅ BEST\n",
		"  Iteration 2:   0.0%  ⬅ REGRESSION, VOID\n",
		"  Iteration 3:  58.0% ",
	} {
		if want == "" {
			continue
		}
		if !strings.Contains(got, strings.ReplaceAll(want, "█", "░")) {
			t.Errorf("status lacks %q:\n%s", want, got)
		}
	}
	// One section alone has no header.
	for sec, want := range map[Sections]string{
		{Persistence: true}: "Persistence Metrics:\n",
		{Regressions: true}: "Regression Events:\n",
		{Quality: true}:     "Quality Trajectory:\n",
	} {
		b.Reset()
		if err := WriteStatus(&b, st, sec); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(b.String(), want) || strings.Contains(b.String(), "Loop ralph-") {
			t.Errorf("section %+v:\n%s", sec, b.String())
		}
	}
	// A fresh loop: nothing recorded, nothing measured.
	fresh := &state.State{LoopID: "ralph-fresh-00000000", Status: state.StatusPaused, ReinforcementLevel: "MINIMAL",
		BaselineMetrics: state.Baseline{CustomMetrics: map[string]any{"test_count_measured": false, "coverage_measured": false}},
		RalphGate:       state.Extra{StopReason: "max iterations reached (1)"}}
	b.Reset()
	if err := WriteStatus(&b, fresh, Sections{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Stopped: max iterations reached (1)\n", "  Baseline Metrics: 0 files, 0 lines\n", "  Best Iteration: none yet\n",
		"Regression Events:\n  none\n", "Quality Trajectory:\n  no iteration recorded yet\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("fresh status lacks %q:\n%s", want, b.String())
		}
	}
}

// TestCoverWriteList: one line per loop, or a hint when there is none.
func TestCoverWriteList(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	if err := WriteList(&b, nil); err != nil || !strings.Contains(b.String(), "no loops in this repository") {
		t.Errorf("empty list: %q, %v", b.String(), err)
	}
	st := cvViewState(t, t.TempDir())
	other := &state.State{LoopID: "ralph-other-11111111", Status: state.StatusCompleted, Iteration: 2, Task: strings.Repeat("long task ", 30),
		Configuration: state.Configuration{MaxIterations: 5}}
	b.Reset()
	if err := WriteList(&b, []*state.State{st, other}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "running    iteration   3/10  best 1 (60.0)     make the tests pass") ||
		!strings.Contains(lines[1], "completed  iteration   2/5   best -") || !strings.HasSuffix(lines[1], "...") {
		t.Errorf("list:\n%s", b.String())
	}
}

// TestCoverAnalytics: the analytics summary, its text report and its CSV.
// Iteration 2 is void (blocked): its drop is not diminishing returns.
func TestCoverAnalytics(t *testing.T) {
	t.Parallel()
	st := cvViewState(t, t.TempDir())
	a := BuildAnalytics(st)
	if a.TotalIterations != 3 || a.FinalIteration != 3 || a.FinalQuality != 58 || a.TotalImprovement != 18 || a.OptimalIteration != 1 ||
		a.SelectedIteration != 0 || a.QualityTrajectory != "fluctuating" || a.DiminishingReturnsDetected || a.DiminishingReturnsIter != 0 ||
		a.TotalTimeMS != 30*60*1000 || a.IterationsSaved != 0 {
		t.Errorf("analytics = %+v", a)
	}
	if !strings.Contains(a.SelectionReason, "no iteration reaches the quality threshold 70; the best one below it is iteration 1 (60.0)") {
		t.Errorf("selection = %q", a.SelectionReason)
	}
	rec := a.Iterations[0]
	if rec.ExecutionTimeMS != 600000 || rec.VerificationStatus != "failed" || rec.TokensUsed == nil || *rec.TokensUsed != 100 || rec.Tag != TagName(st.LoopID, 1) {
		t.Errorf("iteration record = %+v", rec)
	}
	want := []BreakdownRow{
		{Name: "Tests passing", First: cvF(80), Last: cvF(100), Unit: "%"},
		{Name: "Lint and type errors", First: cvF(4), Last: cvF(1)},
		{Name: "Coverage", First: cvF(61.25), Last: cvF(72.5), Unit: "%"},
		{Name: "Complexity", First: cvF(8), Last: cvF(12)},
	}
	if d := cmp.Diff(want, a.Breakdown); d != "" {
		t.Errorf("breakdown (-want +got):\n%s", d)
	}
	var b strings.Builder
	if err := WriteAnalyticsText(&b, st, a); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"Iteration Analytics: ralph-view-loop-0a0b0c0d\n", "Task: make  the\n tests pass\n\n",
		"  1: " + Bar(60, 40, "█"), " 60.0 (+20.0)\n", "  2: ", "  0.0 (-60.0)  VOID\n",
		"Stopping: not stopped (running)\n", "Final Quality: 58.0\n", "Total Iterations: 3\n", "Total Improvement: +18.0\n",
		"Selected: none (no iteration reaches", "Trajectory: fluctuating\n",
		"- Tests passing: 80% → 100% (+20%)\n", "- Lint and type errors: 4 → 1 (-3)\n", "- Coverage: 61.3% → 72.5% (+11.3%)\n", "- Complexity: 8 → 12 (+4)\n"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("text lacks %q:\n%s", w, b.String())
		}
	}
	if strings.Contains(b.String(), "Iterations Saved") {
		t.Errorf("a running loop reports iterations saved:\n%s", b.String())
	}
	var c bytes.Buffer
	if err := WriteAnalyticsCSV(&c, a); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&c).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 || strings.Join(rows[0], ",") != "iteration,timestamp,quality_score,quality_delta,verification_status,void,regression,decision,tag" ||
		strings.Join(rows[2], ",") != "2,2025-03-04T10:20:00Z,0.0,-60.0,failed,true,true,blocked,"+TagName(st.LoopID, 2) {
		t.Errorf("csv = %q", rows)
	}

	// A finished loop with a verified best iteration.
	st.IterationHistory[2].Verified, st.IterationHistory[2].QualityScore = true, 90
	st.Status = state.StatusCompleted
	done := cvT0.Add(time.Hour)
	st.CompletedAt = &done
	st.RalphGate.StopReason = "the completion command passed"
	a = BuildAnalytics(st)
	if a.SelectedIteration != 3 || a.IterationsSaved != 7 || a.TotalTimeMS != 3600000 || !strings.Contains(a.SelectionReason, "its completion command passed") {
		t.Errorf("finished analytics = %+v", a)
	}
	b.Reset()
	if err := WriteAnalyticsText(&b, st, a); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"⬅ BEST", "Stopping: the completion command passed\n", "Selected: iteration 3 (", "Iterations Saved: ~7 of the 10 allowed were not needed\n"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("finished text lacks %q:\n%s", w, b.String())
		}
	}
	// Nothing recorded.
	empty := &state.State{LoopID: "ralph-e-00000000", Status: state.StatusRunning, StartedAt: cvT0, LastUpdated: cvT0}
	a = BuildAnalytics(empty)
	if a.QualityTrajectory != "stable" || len(a.Iterations) != 0 || len(a.Breakdown) != 0 {
		t.Errorf("empty analytics = %+v", a)
	}
	b.Reset()
	if err := WriteAnalyticsText(&b, empty, a); err != nil || !strings.Contains(b.String(), "(no iteration recorded yet)") {
		t.Errorf("empty text = %q, %v", b.String(), err)
	}
	// Written beside the state.
	s := state.NewStore(t.TempDir())
	if err := WriteAnalytics(s, st); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(s.LoopDir(st.LoopID), "analytics", "analytics.json")); err != nil || !bytes.Contains(data, []byte(`"selected_iteration": 3`)) {
		t.Errorf("analytics.json: %v\n%s", err, data)
	}
}

func TestCoverTrajectoryAndBar(t *testing.T) {
	t.Parallel()
	its := func(deltas ...float64) []state.Iteration {
		out := []state.Iteration{{Iteration: 1}}
		for i, d := range deltas {
			out = append(out, state.Iteration{Iteration: i + 2, QualityDelta: d})
		}
		return out
	}
	for _, tt := range []struct {
		name string
		its  []state.Iteration
		want string
	}{
		{"one iteration", its(), "stable"},
		{"small moves", its(0.5, -0.5), "stable"},
		{"up", its(2, 1), "improving"},
		{"down", its(-1, -3), "declining"},
		{"both", its(3, -3), "fluctuating"},
	} {
		if got := trajectory(tt.its); got != tt.want {
			t.Errorf("%s: trajectory = %s, want %s", tt.name, got, tt.want)
		}
	}
	if got := Bar(-5, 10, "#"); got != "" {
		t.Errorf("Bar(-5) = %q", got)
	}
	if got := Bar(55, 10, "#"); got != "######" {
		t.Errorf("Bar(55) = %q", got)
	}
	if got, want := num(nil, "%"), "not measured"; got != want {
		t.Errorf("num(nil) = %q", got)
	}
	if got := delta(nil, cvF(1), ""); got != "" {
		t.Errorf("delta(nil, 1) = %q", got)
	}
}

// TestCoverToolCalls: the tool-call log is appended to, read back past torn
// lines, and summarized.
func TestCoverToolCalls(t *testing.T) {
	t.Parallel()
	s := state.NewStore(t.TempDir())
	id := "ralph-calls-01234567"
	if calls, err := s.ToolCalls(id); err != nil || calls != nil {
		t.Errorf("no log: %v, %v", calls, err)
	}
	if err := s.AppendToolCall("not an id", state.ToolCall{}); err == nil {
		t.Error("AppendToolCall accepted a bad loop id")
	}
	if err := s.AppendToolCall(id, state.ToolCall{Tool: "Bash"}); err == nil {
		t.Error("AppendToolCall wrote into a loop directory that does not exist")
	}
	if err := os.MkdirAll(s.LoopDir(id), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendToolCall(id, state.ToolCall{Tool: "Bash", Command: strings.Repeat("y", state.MaxToolCallText+10), Iteration: 2}); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(s.ToolCallsPath(id), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString("\n{\"tool\":\"Ed\n")
	f.Close()
	if err := s.AppendToolCall(id, state.ToolCall{Tool: "Write", File: "a.go", Risky: true, Risk: "test_file_modification"}); err != nil {
		t.Fatal(err)
	}
	calls, err := s.ToolCalls(id)
	if err != nil || len(calls) != 2 {
		t.Fatalf("calls = %+v, %v", calls, err)
	}
	if c := calls[0].Command; len(c) != state.MaxToolCallText+3 || !strings.HasSuffix(c, "...") || calls[0].Iteration != 2 {
		t.Errorf("long command kept as %d bytes", len(c))
	}
	sum := SummarizeToolCalls(append(calls, state.ToolCall{Tool: "Stop", Event: state.EventStopBlocked}, state.ToolCall{Tool: "Bash", Event: state.EventDenied, LatencyMS: 4}))
	if sum.Total != 2 || sum.ByTool["Bash"] != 1 || sum.ByTool["Write"] != 1 || len(sum.Risky) != 1 || sum.StopBlocks != 1 || sum.Denied != 1 ||
		len(sum.DeniedLatencyMS) != 1 || sum.DeniedLatencyMS[0] != 4 {
		t.Errorf("summary = %+v", sum)
	}
}

// TestCoverRegressionEvents: one event per finding type, with the worst
// severity, the tests under the type's key, and the measured values.
func TestCoverRegressionEvents(t *testing.T) {
	t.Parallel()
	cnt := 7
	st := &state.State{BaselineMetrics: state.Baseline{TestCount: 9, CustomMetrics: map[string]any{}}, RalphGate: state.Extra{BaselineCoverage: cvF(80)}}
	m := gate.Metrics{TestCount: &cnt, CoveragePercentage: cvF(70)}
	fs := []gate.Finding{
		{ID: "a", Type: gate.TestSkipping, Severity: gate.SeverityMedium, File: "a_test.go", Test: "TestA", Message: "skipped"},
		{ID: "b", Type: gate.TestSkipping, Severity: gate.SeverityHigh, Test: "TestB", Message: "skipped"},
		{ID: "c", Type: gate.AssertionWeakening, Severity: gate.SeverityHigh, File: "c_test.go", Test: "TestC", Line: 3, Message: "weaker"},
		{ID: "d", Type: gate.CoverageRegression, Severity: gate.SeverityHigh, Message: "coverage fell"},
		{ID: "e", Type: gate.TestRegression, Severity: gate.SeverityHigh, Test: "TestE", Message: "fails"},
		{ID: "f", Type: gate.ErrorSuppression, Severity: gate.SeverityLow, Message: "ignored: low"},
	}
	evs := regressionEvents(cvT0, 4, fs, st, m)
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
