package analyze

import (
	"fmt"

	"github.com/ralph-gate/ralph-gate/collectors"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// Branch coverage drops, in percentage points: more than the tolerance is a
// medium coverage_regression, more than BranchCoverageHighDrop a high one
// (AIWG's LP-011, Branch Coverage Regression, names a drop of 10% or more).
// Branch coverage moves in larger steps than line coverage (a small project
// has few branches, and a new if adds two), hence a wider tolerance than the
// line coverage's 0.5.
const (
	DefaultBranchCoverageTolerance = 2.0
	BranchCoverageHighDrop         = 10.0
)

// branchCoverageFindings compares branch coverage where both ends measured
// it (LCOV or Cobertura with branch data). A drop beyond the tolerance is
// branch-coverage-dropped, unless no more branches are untaken at HEAD than
// at BASE: then taken branches went with their code, and it is low.
func branchCoverageFindings(base, head *collectors.Result, cc config.Compare) []gate.Finding {
	if base == nil || head == nil || base.Coverage == nil || head.Coverage == nil || CoverageComparable(base, head) != nil {
		return nil
	}
	bp, okb := base.Coverage.BranchPercent()
	hp, okh := head.Coverage.BranchPercent()
	tol := DefaultBranchCoverageTolerance
	if cc.BranchCoverageTolerance != nil {
		tol = *cc.BranchCoverageTolerance
	}
	if !okb || !okh || bp-hp <= tol {
		return nil
	}
	drop := fmt.Sprintf("branch coverage dropped from %.2f%% to %.2f%% (%.2f points; the tolerance is %.2f)", bp, hp, bp-hp, tol)
	sev, rule, msg := gate.SeverityMedium, gate.RuleBranchCoverageDropped, drop+"."
	if bp-hp > BranchCoverageHighDrop {
		sev = gate.SeverityHigh
	}
	bf, bh := base.Coverage.Branches()
	hf, hh := head.Coverage.Branches()
	if bf > 0 && hf > 0 {
		msg = fmt.Sprintf("%s: %d of %d branches are untaken at HEAD, %d of %d at BASE.", drop, hf-hh, hf, bf-bh, bf)
		if hf-hh <= bf-bh {
			sev, rule = gate.SeverityLow, gate.RuleBranchCoverageDroppedCoveredCodeRemoved
			msg = fmt.Sprintf("%s, but only because taken branches were removed: %d of %d branches are untaken at HEAD, %d of %d at BASE, so no code lost its tests.", drop, hf-hh, hf, bf-bh, bf)
		}
	}
	f := measuredFinding(rule, sev, "", "", msg)
	f.BaselineValue, f.CurrentValue = gate.Float(round2(bp)), gate.Float(round2(hp))
	return []gate.Finding{f}
}

// MetricNotes says what the measurements of BASE and HEAD could not
// compare, where silence would read as "no regression": branch coverage
// measured at one end only (a report without branch data at the other, such
// as coverage.py run without --branch, or a Go cover profile).
func MetricNotes(base, head *collectors.Result) []gate.Note {
	if base == nil || head == nil || base.Coverage == nil || head.Coverage == nil {
		return nil
	}
	bp, okb := base.Coverage.BranchPercent()
	hp, okh := head.Coverage.BranchPercent()
	if okb == okh {
		return nil
	}
	end, other, pct, r := "BASE", "HEAD", bp, head
	if okh {
		end, other, pct, r = "HEAD", "BASE", hp, base
	}
	return []gate.Note{{Message: fmt.Sprintf("branch coverage not compared: measured at %s (%.2f%%), and %s's coverage (%s) has no branch data; give both ends a report with branches (LCOV, or Cobertura with condition-coverage)",
		end, pct, other, sourcesOf(r))}}
}
