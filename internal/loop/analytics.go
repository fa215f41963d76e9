package loop

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// Analytics is iteration-analytics.yaml's loop_analytics, written to
// analytics/analytics.json after every record, with ralph-gate's additions
// (stopping reason, improvement, breakdown).
type Analytics struct {
	LoopID                     string            `json:"loop_id"`
	TaskDescription            string            `json:"task_description"`
	StartTime                  time.Time         `json:"start_time"`
	EndTime                    time.Time         `json:"end_time"`
	Iterations                 []IterationRecord `json:"iterations"`
	TotalIterations            int               `json:"total_iterations"`
	OptimalIteration           int               `json:"optimal_iteration,omitempty"`
	FinalIteration             int               `json:"final_iteration"`
	SelectedIteration          int               `json:"selected_iteration,omitempty"`
	SelectionReason            string            `json:"selection_reason"`
	TotalTokens                *int              `json:"total_tokens,omitempty"`
	TotalCostUSD               *float64          `json:"total_cost_usd,omitempty"`
	TotalTimeMS                int               `json:"total_time_ms"`
	DiminishingReturnsDetected bool              `json:"diminishing_returns_detected"`
	DiminishingReturnsIter     int               `json:"diminishing_returns_iteration,omitempty"`
	QualityTrajectory          string            `json:"quality_trajectory"`
	StoppingReason             string            `json:"stopping_reason"`
	FinalQuality               float64           `json:"final_quality"`
	TotalImprovement           float64           `json:"total_improvement"`
	IterationsSaved            int               `json:"iterations_saved"`
	Breakdown                  []BreakdownRow    `json:"breakdown"`
}

// IterationRecord is iteration-analytics.yaml's iteration_record.
type IterationRecord struct {
	LoopID             string  `json:"loop_id"`
	IterationNumber    int     `json:"iteration_number"`
	Timestamp          string  `json:"timestamp"`
	QualityScore       float64 `json:"quality_score"`
	QualityDelta       float64 `json:"quality_delta"`
	ExecutionTimeMS    int     `json:"execution_time_ms"`
	VerificationStatus string  `json:"verification_status"`
	OutputSnapshotPath string  `json:"output_snapshot_path"`
	Void               bool    `json:"void"`
	Regression         bool    `json:"regression"`
	Decision           string  `json:"decision"`
	Tag                string  `json:"tag"`
	// TokensUsed and TokenCostUSD: what the agent reported (left out:
	// unknown).
	TokensUsed   *int     `json:"tokens_used,omitempty"`
	TokenCostUSD *float64 `json:"token_cost_usd,omitempty"`
	NoOp         bool     `json:"no_op,omitempty"`
}

// BreakdownRow compares one measure at the first and the last iteration.
type BreakdownRow struct {
	Name  string   `json:"name"`
	First *float64 `json:"first"`
	Last  *float64 `json:"last"`
	Unit  string   `json:"unit"`
}

// BuildAnalytics summarizes a loop.
func BuildAnalytics(st *state.State) *Analytics {
	a := &Analytics{LoopID: st.LoopID, TaskDescription: st.Task, StartTime: st.StartedAt, EndTime: st.LastUpdated,
		Iterations: []IterationRecord{}, TotalTokens: st.Metrics.TotalTokens, TotalCostUSD: st.Metrics.TotalCostUSD,
		StoppingReason: st.RalphGate.StopReason, Breakdown: []BreakdownRow{}}
	if st.CompletedAt != nil {
		a.EndTime = *st.CompletedAt
	}
	a.TotalTimeMS = int(a.EndTime.Sub(a.StartTime).Milliseconds())
	prevTime := st.StartedAt
	for _, it := range st.IterationHistory {
		v := "failed"
		if it.Verified {
			v = "passed"
		}
		a.Iterations = append(a.Iterations, IterationRecord{
			LoopID: st.LoopID, IterationNumber: it.Iteration, Timestamp: it.Timestamp.Format(time.RFC3339),
			QualityScore: it.QualityScore, QualityDelta: it.QualityDelta,
			ExecutionTimeMS: int(it.Timestamp.Sub(prevTime).Milliseconds()), VerificationStatus: v,
			OutputSnapshotPath: it.SnapshotPath, Void: it.Void, Regression: it.Regression, Decision: it.Decision, Tag: it.Tag,
			TokensUsed: it.TokensUsed, TokenCostUSD: it.TokenCostUSD, NoOp: it.NoOp,
		})
		prevTime = it.Timestamp
	}
	a.TotalIterations = len(st.IterationHistory)
	if a.TotalIterations == 0 {
		a.QualityTrajectory = "stable"
		return a
	}
	last := st.IterationHistory[a.TotalIterations-1]
	a.FinalIteration, a.FinalQuality = last.Iteration, last.QualityScore
	a.TotalImprovement = round1(last.QualityScore - st.RalphGate.BaselineScore)
	if best := bestBefore(st, last.Iteration+1); best != nil {
		a.OptimalIteration = best.Iteration
	}
	sel := SelectBest(st, st.RalphGate.Settings.QualityThreshold)
	a.SelectionReason = sel.Reason
	if sel.Iteration != nil {
		a.SelectedIteration = sel.Iteration.Iteration
	}
	if st.Status.Terminal() {
		a.IterationsSaved = max(0, st.Configuration.MaxIterations-a.TotalIterations)
	}
	set := st.RalphGate.Settings
	for _, it := range st.IterationHistory[1:] {
		if !it.Void && it.QualityDelta < set.ImprovementStop && !a.DiminishingReturnsDetected {
			a.DiminishingReturnsDetected, a.DiminishingReturnsIter = true, it.Iteration
		}
	}
	a.QualityTrajectory = trajectory(st.IterationHistory)
	a.Breakdown = breakdown(st, baselineIteration(st), last)
	return a
}

// baselineIteration presents the baseline as iteration 0, for comparisons.
func baselineIteration(st *state.State) state.Iteration {
	bm := st.BaselineMetrics
	return state.Iteration{Iteration: 0, QualityScore: st.RalphGate.BaselineScore, TestResults: st.RalphGate.BaselineTests,
		MetricsSnapshot: gate.Metrics{CoveragePercentage: st.RalphGate.BaselineCoverage, LintErrors: bm.LintErrors,
			TypescriptErrors: bm.TypescriptErrors, Complexity: st.RalphGate.BaselineComplexity}}
}

func trajectory(its []state.Iteration) string {
	if len(its) < 2 {
		return "stable"
	}
	up, down := 0, 0
	for _, it := range its[1:] {
		switch {
		case it.QualityDelta >= 1:
			up++
		case it.QualityDelta <= -1:
			down++
		}
	}
	switch {
	case up > 0 && down > 0:
		return "fluctuating"
	case up > 0:
		return "improving"
	case down > 0:
		return "declining"
	}
	return "stable"
}

func breakdown(st *state.State, first, last state.Iteration) []BreakdownRow {
	pct := func(t *state.TestResults) *float64 {
		if t == nil || t.Total == 0 {
			return nil
		}
		v := round1(100 * float64(t.Passed) / float64(t.Total))
		return &v
	}
	f := func(p *int) *float64 {
		if p == nil {
			return nil
		}
		v := float64(*p)
		return &v
	}
	lint := func(m gate.Metrics) *float64 {
		if m.LintErrors == nil && m.TypescriptErrors == nil {
			return nil
		}
		v := 0.0
		if m.LintErrors != nil {
			v += float64(*m.LintErrors)
		}
		if m.TypescriptErrors != nil {
			v += float64(*m.TypescriptErrors)
		}
		return &v
	}
	return []BreakdownRow{
		{Name: "Tests passing", First: pct(first.TestResults), Last: pct(last.TestResults), Unit: "%"},
		{Name: "Lint and type errors", First: lint(first.MetricsSnapshot), Last: lint(last.MetricsSnapshot)},
		{Name: "Coverage", First: first.MetricsSnapshot.CoveragePercentage, Last: last.MetricsSnapshot.CoveragePercentage, Unit: "%"},
		{Name: "Complexity", First: f(first.MetricsSnapshot.Complexity), Last: f(last.MetricsSnapshot.Complexity)},
	}
}

// WriteAnalytics writes analytics/analytics.json.
func WriteAnalytics(s *state.Store, st *state.State) error {
	dir := filepath.Join(s.LoopDir(st.LoopID), "analytics")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return state.WriteAtomic(filepath.Join(dir, "analytics.json"), state.MustIndent(BuildAnalytics(st)))
}

// Bar draws a score as a bar of width cells for 100 points.
func Bar(score float64, width int, cell string) string {
	n := int(score*float64(width)/100 + 0.5)
	if n < 0 {
		n = 0
	}
	return strings.Repeat(cell, n)
}

// WriteAnalyticsText writes the seeds' analytics report.
func WriteAnalyticsText(w io.Writer, st *state.State, a *Analytics) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Iteration Analytics: %s\n", st.LoopID)
	b.WriteString("═══════════════════════════════════\n")
	fmt.Fprintf(&b, "Task: %s\n\n", st.Task)
	b.WriteString("Quality Over Iterations\n───────────────────────\n")
	if len(a.Iterations) == 0 {
		b.WriteString("(no iteration recorded yet)\n")
	}
	for _, it := range a.Iterations {
		mark := ""
		switch {
		case it.Void:
			mark = "  VOID"
		case it.IterationNumber == a.SelectedIteration:
			mark = "  ⬅ BEST"
		}
		if it.Regression && !it.Void {
			mark += "  REGRESSION"
		}
		fmt.Fprintf(&b, "%3d: %-40s %5.1f (%+.1f)%s\n", it.IterationNumber, Bar(it.QualityScore, 40, "█"), it.QualityScore, it.QualityDelta, mark)
	}
	stop := a.StoppingReason
	if stop == "" {
		stop = "not stopped (" + string(st.Status) + ")"
	}
	if p := limitExceeded(st); p != nil {
		stop += "\n  " + limitLine(p)
	}
	fmt.Fprintf(&b, "\nStopping: %s\n───────────────────────\n", stop)
	fmt.Fprintf(&b, "Final Quality: %.1f\n", a.FinalQuality)
	fmt.Fprintf(&b, "Total Iterations: %d\n", a.TotalIterations)
	fmt.Fprintf(&b, "Total Improvement: %+.1f\n", a.TotalImprovement)
	if a.SelectedIteration > 0 {
		fmt.Fprintf(&b, "Selected: iteration %d (%s)\n", a.SelectedIteration, a.SelectionReason)
	} else if a.SelectionReason != "" {
		fmt.Fprintf(&b, "Selected: none (%s)\n", a.SelectionReason)
	}
	fmt.Fprintf(&b, "Trajectory: %s\n", a.QualityTrajectory)
	if st.Status.Terminal() {
		fmt.Fprintf(&b, "Iterations Saved: ~%d of the %d allowed were not needed\n", a.IterationsSaved, st.Configuration.MaxIterations)
	}
	if len(a.Breakdown) > 0 {
		b.WriteString("\nBreakdown:\n")
		for _, r := range a.Breakdown {
			fmt.Fprintf(&b, "- %s: %s → %s%s\n", r.Name, num(r.First, r.Unit), num(r.Last, r.Unit), delta(r.First, r.Last, r.Unit))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func num(v *float64, unit string) string {
	if v == nil {
		return "not measured"
	}
	return strconv.FormatFloat(round1(*v), 'f', -1, 64) + unit
}

func delta(a, b *float64, unit string) string {
	if a == nil || b == nil {
		return ""
	}
	return fmt.Sprintf(" (%+g%s)", round1(*b-*a), unit)
}

// WriteAnalyticsCSV writes one row per iteration.
func WriteAnalyticsCSV(w io.Writer, a *Analytics) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"iteration", "timestamp", "quality_score", "quality_delta", "verification_status", "void", "regression", "decision", "tag"})
	for _, it := range a.Iterations {
		_ = cw.Write([]string{strconv.Itoa(it.IterationNumber), it.Timestamp, fmt.Sprintf("%.1f", it.QualityScore),
			fmt.Sprintf("%.1f", it.QualityDelta), it.VerificationStatus, strconv.FormatBool(it.Void),
			strconv.FormatBool(it.Regression), it.Decision, it.Tag})
	}
	cw.Flush()
	return cw.Error()
}
