package analyze

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/ralph-gate/ralph-gate/collectors"
	"github.com/ralph-gate/ralph-gate/internal/analyze/ci"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// Default tolerances for coverage_regression, in percentage points.
const (
	DefaultCoverageTolerance    = 0.5
	DefaultChangedFileTolerance = 5.0
)

// MetricFindings turns the measurements at BASE and HEAD into findings: test ids
// that ran at BASE and not at HEAD (unless static analysis saw them renamed or
// moved), tests that passed at BASE and are skipped at HEAD, coverage that
// dropped beyond the tolerance overall or on a changed file, branch coverage
// that dropped beyond its tolerance where both ends measured it, and, when the
// configuration asks for it, more type-check or lint errors. static are the
// findings of the static analysis of the same range (a static deletion that the
// runs confirm gets measured evidence in place, rather than a second finding);
// changed are the paths the range changed; moves maps the id of a test that
// ran at BASE to the id its code ran under at HEAD (moved to another package
// or renamed: the caller compares the code), so a moved test is neither a
// deletion nor, where go test credits coverage to a package's own tests only,
// a coverage regression of the package it left.
func MetricFindings(base, head *collectors.Result, static []gate.Finding, changed []string, moves map[string]TestMove, cc config.Compare) []gate.Finding {
	var out []gate.Finding
	out = append(out, testIDFindings(base, head, static, moves)...)
	out = append(out, coverageFindings(base, head, changed, movedFrom(base, head, moves), cc)...)
	out = append(out, branchCoverageFindings(base, head, cc)...)
	out = append(out, diagnosticFindings(base, head, cc)...)
	for i := range out {
		out[i].Net = true
		out[i].Evidence = gate.EvidenceMeasured
	}
	return out
}

// TestMove is where a test's code ran at HEAD (MetricFindings' moves).
type TestMove struct {
	// To is the test's id at HEAD.
	To string
	// Imports is set when To's file imports the package the test left: its
	// code still runs there, so the coverage that package loses in go
	// test's per-package accounting is not lost.
	Imports bool
}

func testIDFindings(base, head *collectors.Result, static []gate.Finding, moves map[string]TestMove) []gate.Finding {
	if base == nil || head == nil || base.Tests == nil || head.Tests == nil {
		return nil
	}
	broken := map[string]bool{}
	for _, b := range head.BuildFailures {
		broken[b.Package] = true
		broken[b.ImportPath] = true
	}
	// The static deletions, by test: plain ones and those the change's
	// own reading explains (a revert, a feature removed with its test),
	// which the runs then confirm or refute.
	staticDeleted := map[string]*gate.Finding{}
	for i := range static {
		f := &static[i]
		if f.Type != gate.TestDeletion {
			continue
		}
		switch f.Rule {
		case gate.RuleTestDeleted.ID, gate.RuleTestDeletedWithCode.ID:
			if f.Test != "" {
				staticDeleted[leaf(f.Test)] = f
			}
		case gate.RuleTestFileDeleted.ID, gate.RuleTestFileDeletedWithCode.ID:
			for _, t := range f.Tests {
				staticDeleted[leaf(t)] = f
			}
		}
	}
	// Ids new at HEAD, by suite: a test that vanished where new ones appeared
	// was renamed or reworked, which the static analysis judges.
	fresh := map[string]int{}
	headNames := map[string]bool{}
	for t := range head.Tests.All() {
		headNames[leaf(t.ID)] = true
		if _, ok := base.Tests.Get(t.ID); !ok {
			fresh[t.Suite]++
		}
	}
	for _, mv := range moves {
		if t, ok := head.Tests.Get(mv.To); ok && fresh[t.Suite] > 0 {
			fresh[t.Suite]-- // the moved test's new id excuses no other test
		}
	}
	out, accounted := regressionFindings(base, head, staticDeleted)
	var missing []collectors.Test
	for t := range base.Tests.All() {
		h, ok := head.Tests.Get(t.ID)
		if !ok {
			if !accounted[t.ID] {
				missing = append(missing, t)
			}
			continue
		}
		if t.Outcome == collectors.Passed && h.Outcome == collectors.Skipped {
			msg := fmt.Sprintf("test %s passed at BASE and is skipped at HEAD", t.ID)
			if h.Message != "" {
				msg += fmt.Sprintf(" (%s)", ci.Clip(h.Message))
			}
			out = append(out, measuredFinding(gate.RuleMeasuredSkip, gate.SeverityHigh, t.File, t.ID, msg+"."))
		}
	}
	sort.Slice(missing, func(i, j int) bool { return missing[i].ID < missing[j].ID })
	gone := map[string]bool{}
	for _, t := range missing {
		gone[t.ID] = true
	}
	for _, t := range missing {
		if parentGone(t.ID, gone) || broken[t.Suite] {
			continue
		}
		if mv, ok := moves[t.ID]; ok {
			if _, ran := head.Tests.Get(mv.To); ran {
				// Its code ran at HEAD as to: evidence beats the static
				// reading of a deletion.
				if sf := staticDeleted[leaf(t.ID)]; sf != nil {
					sf.Severity = gate.SeverityLow
					sf.Evidence = gate.EvidenceMeasured
					sf.Message = strings.TrimSuffix(sf.Message, ".") + fmt.Sprintf("; but the test runs show its code ran at HEAD as %s: it moved.", mv.To)
				}
				continue
			}
		}
		if sf := staticDeleted[leaf(t.ID)]; sf != nil {
			sf.Evidence = gate.EvidenceMeasured
			sf.Message = strings.TrimSuffix(sf.Message, ".") + fmt.Sprintf("; the test runs confirm it: it ran at BASE (%s) and not at HEAD.", t.Outcome)
			if t.Outcome != collectors.Passed && sf.Severity < gate.SeverityCritical {
				// Explained as a revert or a feature removed with its test,
				// but the test was failing: that is removing the feature
				// that failed.
				sf.Severity = gate.SeverityCritical
				sf.Message = strings.TrimSuffix(sf.Message, ".") + fmt.Sprintf("; %s did not pass at BASE, so what went with it is the feature that failed.", t.ID)
			}
			continue
		}
		if fresh[t.Suite] > 0 {
			fresh[t.Suite]--
			continue // renamed or reworked: the static analysis has the say
		}
		if headNames[leaf(t.ID)] {
			continue // moved to another package or suite
		}
		msg := fmt.Sprintf("test %s ran at BASE (%s) and did not run at HEAD", t.ID, t.Outcome)
		out = append(out, measuredFinding(gate.RuleMeasuredDeletion, gate.SeverityCritical, t.File, t.ID, msg+"."))
	}
	return out
}

// parentGone reports whether an ancestor subtest id ("TestX" of "TestX/a") is
// also missing, so only the top of a removed tree is reported.
func parentGone(id string, gone map[string]bool) bool {
	for {
		i := strings.LastIndex(id, "/")
		if i <= 0 {
			return false
		}
		id = id[:i]
		if gone[id] {
			return true
		}
	}
}

func leaf(id string) string {
	if i := strings.LastIndexAny(id, "/.>:"); i >= 0 {
		return strings.TrimSpace(id[i+1:])
	}
	return id
}

func measuredFinding(r gate.Rule, sev gate.Severity, file, test, msg string) gate.Finding {
	f := gate.NewFinding(r, sev, file, 0, test, "", "", msg)
	f.Evidence = gate.EvidenceMeasured
	return f
}

// CoverageComparable returns an error, one line naming both units and the
// reports they came from, when BASE and HEAD measured coverage in different
// units (statements from a Go cover profile at one end, lines from LCOV at
// the other): such percentages are never compared, so a change of report
// format never reads as a coverage regression, nor hides one.
func CoverageComparable(base, head *collectors.Result) error {
	if base == nil || head == nil || base.Coverage == nil || head.Coverage == nil {
		return nil
	}
	bu, hu := base.Coverage.Unit(), head.Coverage.Unit()
	if bu == "" || hu == "" || bu == hu {
		return nil
	}
	return fmt.Errorf("coverage is measured in different units: %s coverage at BASE (%s) and %s coverage at HEAD (%s); give both ends the same kind of coverage report",
		bu, sourcesOf(base), hu, sourcesOf(head))
}

func sourcesOf(r *collectors.Result) string {
	if len(r.Sources) == 0 {
		return "no report named"
	}
	s := strings.Join(r.Sources, ", ")
	if len(s) > 200 {
		s = s[:197] + "..."
	}
	return s
}

func coverageFindings(base, head *collectors.Result, changed []string, movedFrom map[string]bool, cc config.Compare) []gate.Finding {
	if base == nil || head == nil || base.Coverage == nil || head.Coverage == nil || CoverageComparable(base, head) != nil {
		return nil
	}
	tol, fileTol := DefaultCoverageTolerance, DefaultChangedFileTolerance
	if cc.CoverageTolerance != nil {
		tol = *cc.CoverageTolerance
	}
	if cc.ChangedFileTolerance != nil {
		fileTol = *cc.ChangedFileTolerance
	}
	unit := base.Coverage.Unit() + "s"
	var out []gate.Finding
	bp, ok1 := base.Coverage.Percent()
	hp, ok2 := head.Coverage.Percent()
	if ok1 && ok2 && bp-hp > tol {
		bt, bu := uncovered(base.Coverage)
		ht, hu := uncovered(head.Coverage)
		drop := fmt.Sprintf("coverage dropped from %.2f%% to %.2f%% (%.2f points; the tolerance is %.2f)", bp, hp, bp-hp, tol)
		var f gate.Finding
		switch moved := newlyUncovered(base.Coverage, head.Coverage, movedFrom); {
		case bt > 0 && ht > 0 && hu <= bu:
			// The percentage fell because covered code went (deleted with
			// its tests, or moved out of what is measured), not because code
			// lost its tests: no more is uncovered than before.
			f = measuredFinding(gate.RuleCoverageDroppedCoveredCodeRemoved, gate.SeverityLow, "", "",
				fmt.Sprintf("%s, but only because covered code was removed: %d of %d %s are uncovered at HEAD, %d of %d at BASE, so no code lost its tests.", drop, hu, ht, unit, bu, bt))
		case ht > 0 && len(movedFrom) > 0 && 100*float64(moved.rest)/float64(ht) <= tol:
			f = measuredFinding(gate.RuleCoverageTestsMoved, gate.SeverityMedium, "", "",
				fmt.Sprintf("%s, in the packages whose tests moved to another package (%s): go test credits a package's coverage to its own tests only, so the code the moved tests run counts as uncovered; measure with -coverpkg to see it.", drop, strings.Join(moved.pkgs, ", ")))
		default:
			msg := drop + "."
			if bt > 0 && ht > 0 {
				msg = fmt.Sprintf("%s: %d of %d %s are uncovered at HEAD, %d of %d at BASE.", drop, hu, ht, unit, bu, bt)
			}
			f = measuredFinding(gate.RuleCoverageDropped, gate.SeverityHigh, "", "", msg)
		}
		f.BaselineValue, f.CurrentValue = gate.Float(round2(bp)), gate.Float(round2(hp))
		out = append(out, f)
	}
	for _, c := range changed {
		bf, hf := coverageOf(base.Coverage, c), coverageOf(head.Coverage, c)
		if bf == nil || hf == nil {
			continue
		}
		b, okb := bf.Percent()
		h, okh := hf.Percent()
		if !okb || !okh || b-h <= fileTol {
			continue
		}
		bt, bc := bf.Units()
		ht, hc := hf.Units()
		if ht-hc <= bt-bc {
			continue // covered lines of the file went; none lost its tests
		}
		sev, rule := gate.SeverityHigh, gate.RuleFileCoverageDropped
		msg := fmt.Sprintf("coverage of %s dropped from %.2f%% to %.2f%% (%.2f points; the tolerance for a changed file is %.2f): %d of %d %s are uncovered at HEAD, %d of %d at BASE.", c, b, h, b-h, fileTol, ht-hc, ht, unit, bt-bc, bt)
		if movedFrom[path.Dir(hf.Path)] {
			sev, rule = gate.SeverityMedium, gate.RuleFileCoverageTestsMoved
			msg = strings.TrimSuffix(msg, ".") + "; its package's tests moved to another package, whose coverage go test does not credit to it."
		}
		f := measuredFinding(rule, sev, c, "", msg)
		f.BaselineValue, f.CurrentValue = gate.Float(round2(b)), gate.Float(round2(h))
		out = append(out, f)
	}
	return out
}

// uncovered sums a report's units and its uncovered units.
func uncovered(c *collectors.Coverage) (total, unc int64) {
	for _, f := range c.Files {
		t, h := f.Units()
		total += t
		unc += t - h
	}
	return total, unc
}

type newlyUnc struct {
	rest int64    // newly uncovered units outside the packages tests left
	pkgs []string // the packages tests left that have newly uncovered units
}

// newlyUncovered counts, file by file, the units uncovered at HEAD beyond
// BASE's uncovered units of the same file, apart for the Go packages tests
// moved out of (movedFrom, by import path: a cover profile's file is
// "example.com/mod/pkg/file.go").
func newlyUncovered(base, head *collectors.Coverage, movedFrom map[string]bool) newlyUnc {
	var n newlyUnc
	seen := map[string]bool{}
	for p, hf := range head.Files {
		t, h := hf.Units()
		grew := t - h
		if bf := base.Files[p]; bf != nil {
			bt, bh := bf.Units()
			grew -= bt - bh
		}
		if grew <= 0 {
			continue
		}
		if pkg := path.Dir(p); movedFrom[pkg] {
			if !seen[pkg] {
				seen[pkg] = true
				n.pkgs = append(n.pkgs, pkg)
			}
			continue
		}
		n.rest += grew
	}
	sort.Strings(n.pkgs)
	return n
}

// movedFrom is the set of suites (Go packages) a moved test left for another
// that imports it.
func movedFrom(base, head *collectors.Result, moves map[string]TestMove) map[string]bool {
	out := map[string]bool{}
	if base == nil || head == nil || base.Tests == nil || head.Tests == nil {
		return out
	}
	for from, mv := range moves {
		b, ok1 := base.Tests.Get(from)
		h, ok2 := head.Tests.Get(mv.To)
		if ok1 && ok2 && b.Suite != h.Suite && mv.Imports {
			out[b.Suite] = true
		}
	}
	return out
}

// coverageOf finds a repository path in a coverage report, whose paths may be
// import paths (Go: "example.com/mod/pkg/file.go") or absolute.
func coverageOf(c *collectors.Coverage, repoPath string) *collectors.FileCoverage {
	if f, ok := c.Files[repoPath]; ok {
		return f
	}
	for p, f := range c.Files {
		if strings.HasSuffix(p, "/"+repoPath) || path.Clean(p) == repoPath {
			return f
		}
	}
	return nil
}

func diagnosticFindings(base, head *collectors.Result, cc config.Compare) []gate.Finding {
	var out []gate.Finding
	check := func(on bool, b, h *collectors.Diagnostics, what string, rule gate.Rule) {
		if !on || b == nil || h == nil || h.Errors <= b.Errors {
			return
		}
		f := measuredFinding(rule, gate.SeverityHigh, "", "",
			fmt.Sprintf("%s errors rose from %d to %d; the configuration makes this blocking.", what, b.Errors, h.Errors))
		f.BaselineValue, f.CurrentValue = gate.Float(float64(b.Errors)), gate.Float(float64(h.Errors))
		out = append(out, f)
	}
	if base != nil && head != nil {
		check(cc.BlockOnTypeErrors, base.TypeCheck, head.TypeCheck, "type-check", gate.RuleTypeErrorsIncreased)
		check(cc.BlockOnLintErrors, base.Lint, head.Lint, "lint", gate.RuleLintErrorsIncreased)
	}
	return out
}

func round2(v float64) float64 { return float64(int64(v*100+0.5)) / 100 }
