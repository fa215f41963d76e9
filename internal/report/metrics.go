package report

import (
	"math"
	"strconv"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// direction says which way a metric improves.
type direction int

const (
	neutral      direction = iota // size metrics: neither way is a regression
	higherBetter                  // tests, coverage
	lowerBetter                   // errors, warnings, failures, complexity
)

// metricRow is one line of the metrics table: a metric's value at both ends.
type metricRow struct {
	name       string
	base, head *float64
	percent    bool
	better     direction
}

// metricRows lists every metric of the contract, measured or not, in the seeds'
// order, with branch coverage after coverage where an end measured it; a side
// that was not measured stays nil and prints "n/a".
func metricRows(p *gate.MetricsPair) []metricRow {
	var base, head gate.Metrics
	if p.Base != nil {
		base = *p.Base
	}
	if p.Head != nil {
		head = *p.Head
	}
	ints := func(name string, b, h *int, d direction) metricRow {
		return metricRow{name: name, base: intPtr(b), head: intPtr(h), better: d}
	}
	tests := func(name string, pick func(gate.TestStats) int, d direction) metricRow {
		r := metricRow{name: name, better: d}
		if base.Tests != nil {
			r.base = gate.Float(float64(pick(*base.Tests)))
		}
		if head.Tests != nil {
			r.head = gate.Float(float64(pick(*head.Tests)))
		}
		return r
	}
	rows := []metricRow{
		ints("test_count", base.TestCount, head.TestCount, higherBetter),
		{name: "coverage_percentage", base: base.CoveragePercentage, head: head.CoveragePercentage, percent: true, better: higherBetter},
	}
	// Branch coverage is a metric only LCOV and Cobertura reports with
	// branch data measure: shown where either end has it, not as n/a in
	// every Go project's table.
	if base.BranchCoveragePercentage != nil || head.BranchCoveragePercentage != nil {
		rows = append(rows, metricRow{name: "branch_coverage_percentage", base: base.BranchCoveragePercentage, head: head.BranchCoveragePercentage, percent: true, better: higherBetter})
	}
	return append(rows,
		ints("typescript_errors", base.TypescriptErrors, head.TypescriptErrors, lowerBetter),
		ints("lint_errors", base.LintErrors, head.LintErrors, lowerBetter),
		ints("lint_warnings", base.LintWarnings, head.LintWarnings, lowerBetter),
		ints("file_count", base.FileCount, head.FileCount, neutral),
		ints("lines_of_code", base.LinesOfCode, head.LinesOfCode, neutral),
		ints("complexity", base.Complexity, head.Complexity, lowerBetter),
		tests("tests.total", func(t gate.TestStats) int { return t.Total }, higherBetter),
		tests("tests.passed", func(t gate.TestStats) int { return t.Passed }, higherBetter),
		tests("tests.failed", func(t gate.TestStats) int { return t.Failed }, lowerBetter),
		tests("tests.skipped", func(t gate.TestStats) int { return t.Skipped }, lowerBetter),
	)
}

func intPtr(p *int) *float64 {
	if p == nil {
		return nil
	}
	return gate.Float(float64(*p))
}

func (r metricRow) delta() (float64, bool) {
	if r.base == nil || r.head == nil {
		return 0, false
	}
	d := *r.head - *r.base
	if r.percent {
		d = math.Round(d*100) / 100
	}
	return d, !math.IsNaN(d)
}

// regressed reports whether the metric moved the wrong way.
func (r metricRow) regressed() bool {
	d, ok := r.delta()
	if !ok {
		return false
	}
	return (r.better == higherBetter && d < 0) || (r.better == lowerBetter && d > 0)
}

func (r metricRow) format(v *float64) string {
	if v == nil {
		return "n/a"
	}
	if r.percent {
		return strconv.FormatFloat(*v, 'f', 2, 64) + "%"
	}
	return strconv.FormatFloat(*v, 'f', -1, 64)
}

func (r metricRow) formatDelta() string {
	d, ok := r.delta()
	if !ok {
		return "n/a"
	}
	s := strconv.FormatFloat(d, 'f', -1, 64)
	if r.percent {
		s = strconv.FormatFloat(d, 'f', 2, 64)
	}
	if d > 0 {
		s = "+" + s
	}
	if d == 0 {
		s = "0"
	}
	return s
}
