package loop

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// viewState is a loop of three iterations as status and analytics see
// it: measured tests, lint, coverage and complexity, a blocked iteration 2
// that was rejected, and a tool-call log in dir.
func viewState(t *testing.T, dir string) *state.State {
	t.Helper()
	ten, twenty, three, one, two := 10, 20, 3, 1, 2
	files, lines := 4, 120
	complexity := 8
	id := "ralph-view-loop-0a0b0c0d"
	st := &state.State{
		Version: state.StateVersion, LoopID: id, Status: state.StatusRunning, Iteration: 3, Task: "make  the\n tests pass",
		CompletionCriteria: "go test ./...", StartedAt: fixedT0, LastUpdated: fixedT0.Add(30 * time.Minute), WorkingDirectory: dir,
		Configuration:      state.Configuration{MaxIterations: 10},
		ReinforcementLevel: "STANDARD", RecoveryAttempts: 1,
		BaselineMetrics: state.Baseline{TestCount: 10, CoveragePercentage: 61.25, TypescriptErrors: &three, LintErrors: &one,
			FileCount: 3, LinesOfCode: 100, CustomMetrics: map[string]any{}},
		RalphGate: state.Extra{BaselineScore: 40, BaselineTests: &state.TestResults{Total: 10, Passed: 8, Failed: 2}, BaselineCoverage: floatPtr(61.25),
			BaselineComplexity: &complexity, Settings: state.Defaults()},
	}
	st.Progress.LastCompletionCheck = &state.CompletionCheck{Iteration: 3, Passed: false}
	mk := func(n int, score, delta float64, void, regression bool, tr *state.TestResults, m gate.Metrics) state.Iteration {
		return state.Iteration{Iteration: n, Timestamp: fixedT0.Add(time.Duration(n) * 10 * time.Minute), QualityScore: score, QualityDelta: delta,
			Void: void, Regression: regression, TestResults: tr, MetricsSnapshot: m, Tag: TagName(id, n), Decision: "continue",
			SnapshotPath: SnapshotPath(id, n)}
	}
	c2 := 12
	tokens, cost := 100, 0.5
	it1 := mk(1, 60, 20, false, false, &state.TestResults{Total: 10, Passed: 9, Failed: 1}, gate.Metrics{TestCount: &ten, CoveragePercentage: floatPtr(70), LintErrors: &two, TypescriptErrors: &one, Complexity: &complexity, FileCount: &files, LinesOfCode: &lines})
	it1.TokensUsed, it1.TokenCostUSD = &tokens, &cost
	it2 := mk(2, 0, -60, true, true, &state.TestResults{Total: 9, Passed: 9}, gate.Metrics{TestCount: &twenty})
	it2.Decision = "blocked"
	it3 := mk(3, 58, 58, false, false, &state.TestResults{Total: 10, Passed: 10}, gate.Metrics{TestCount: &ten, CoveragePercentage: floatPtr(72.5), LintErrors: &one, Complexity: &c2, FileCount: &files, LinesOfCode: &lines})
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
	st.PersistenceMetrics = state.PersistMetrics{DetectionLatencyP95MS: 120, DetectionLatencyP99MS: 150, IntegrationOverheadPct: floatPtr(12.5),
		TruePositiveCount: 3, FalsePositiveCount: 1, FalsePositiveRate: floatPtr(0.25)}
	return st
}

// TestWriteStatus: every section of the status view, and each alone.
func TestWriteStatus(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	st := viewState(t, dir)
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
		{Tool: "Stop", Event: state.EventStopReleased, Timestamp: fixedT0},
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

// TestWriteList: one line per loop, or a hint when there is none.
func TestWriteList(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	if err := WriteList(&b, nil); err != nil || !strings.Contains(b.String(), "no loops in this repository") {
		t.Errorf("empty list: %q, %v", b.String(), err)
	}
	st := viewState(t, t.TempDir())
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
