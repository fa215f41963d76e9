package report

import (
	"slices"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// TestBranchCoverageRow: branch coverage is a row where an end measured it
// (LCOV or Cobertura with branch data), right after line coverage, and no
// row of n/a where neither did (Go cover profiles have no branch data).
func TestBranchCoverageRow(t *testing.T) {
	names := func(p *gate.MetricsPair) []string {
		var out []string
		for _, r := range metricRows(p) {
			out = append(out, r.name)
		}
		return out
	}
	goOnly := &gate.MetricsPair{Base: &gate.Metrics{CoveragePercentage: gate.Float(80)}, Head: &gate.Metrics{CoveragePercentage: gate.Float(79)}}
	if slices.Contains(names(goOnly), "branch_coverage_percentage") {
		t.Errorf("rows %v: a branch coverage row where no end measured it", names(goOnly))
	}
	headOnly := &gate.MetricsPair{Base: &gate.Metrics{}, Head: &gate.Metrics{BranchCoveragePercentage: gate.Float(50)}}
	got := names(headOnly)
	if i := slices.Index(got, "branch_coverage_percentage"); i < 1 || got[i-1] != "coverage_percentage" {
		t.Fatalf("rows %v: want branch_coverage_percentage after coverage_percentage", got)
	}
	r := metricRows(headOnly)[2]
	if r.format(r.base) != "n/a" || r.format(r.head) != "50.00%" || r.formatDelta() != "n/a" {
		t.Errorf("row %s: %s -> %s (%s), want n/a -> 50.00%% (n/a)", r.name, r.format(r.base), r.format(r.head), r.formatDelta())
	}
}
