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

	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// TestAnalytics: the analytics summary, its text report and its CSV.
// Iteration 2 is void (blocked): its drop is not diminishing returns.
func TestAnalytics(t *testing.T) {
	t.Parallel()
	st := viewState(t, t.TempDir())
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
		{Name: "Tests passing", First: floatPtr(80), Last: floatPtr(100), Unit: "%"},
		{Name: "Lint and type errors", First: floatPtr(4), Last: floatPtr(1)},
		{Name: "Coverage", First: floatPtr(61.25), Last: floatPtr(72.5), Unit: "%"},
		{Name: "Complexity", First: floatPtr(8), Last: floatPtr(12)},
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
	done := fixedT0.Add(time.Hour)
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
	empty := &state.State{LoopID: "ralph-e-00000000", Status: state.StatusRunning, StartedAt: fixedT0, LastUpdated: fixedT0}
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

func TestTrajectoryAndBar(t *testing.T) {
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
	if got := delta(nil, floatPtr(1), ""); got != "" {
		t.Errorf("delta(nil, 1) = %q", got)
	}
}
