package analyze

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/ralph-gate/ralph-gate/collectors"
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
// dropped beyond the tolerance overall or on a changed file, and, when the
// configuration asks for it, more type-check or lint errors. static are the
// findings of the static analysis of the same range (a static deletion that the
// runs confirm gets measured evidence in place, rather than a second finding);
// changed are the paths the range changed.
func MetricFindings(base, head *collectors.Result, static []gate.Finding, changed []string, cc config.Compare) []gate.Finding {
	var out []gate.Finding
	out = append(out, testIDFindings(base, head, static)...)
	out = append(out, coverageFindings(base, head, changed, cc)...)
	out = append(out, diagnosticFindings(base, head, cc)...)
	for i := range out {
		out[i].Net = true
		out[i].Evidence = gate.EvidenceMeasured
	}
	return out
}

func testIDFindings(base, head *collectors.Result, static []gate.Finding) []gate.Finding {
	if base == nil || head == nil || base.Tests == nil || head.Tests == nil {
		return nil
	}
	broken := map[string]bool{}
	for _, b := range head.BuildFailures {
		broken[b.Package] = true
		broken[b.ImportPath] = true
	}
	staticDeleted := map[string]*gate.Finding{}
	for i := range static {
		f := &static[i]
		if f.Type == gate.TestDeletion && f.Rule == "test-deleted" && f.Test != "" {
			staticDeleted[leaf(f.Test)] = f
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
				msg += fmt.Sprintf(" (%s)", clip(h.Message))
			}
			out = append(out, measuredFinding(gate.TestSkipping, gate.SeverityHigh, "measured-skip", t.File, t.ID, msg+"."))
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
		if sf := staticDeleted[leaf(t.ID)]; sf != nil {
			sf.Evidence = gate.EvidenceMeasured
			sf.Message = strings.TrimSuffix(sf.Message, ".") + fmt.Sprintf("; the test runs confirm it: it ran at BASE (%s) and not at HEAD.", t.Outcome)
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
		out = append(out, measuredFinding(gate.TestDeletion, gate.SeverityCritical, "measured-deletion", t.File, t.ID, msg+"."))
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

func measuredFinding(t gate.FindingType, sev gate.Severity, rule, file, test, msg string) gate.Finding {
	f := newFinding(t, sev, rule, file, 0, test, "", "", msg)
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

func coverageFindings(base, head *collectors.Result, changed []string, cc config.Compare) []gate.Finding {
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
	var out []gate.Finding
	bp, ok1 := base.Coverage.Percent()
	hp, ok2 := head.Coverage.Percent()
	if ok1 && ok2 && bp-hp > tol {
		f := measuredFinding(gate.CoverageRegression, gate.SeverityHigh, "coverage-dropped", "", "",
			fmt.Sprintf("coverage dropped from %.2f%% to %.2f%% (%.2f points; the tolerance is %.2f).", bp, hp, bp-hp, tol))
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
		f := measuredFinding(gate.CoverageRegression, gate.SeverityHigh, "file-coverage-dropped", c, "",
			fmt.Sprintf("coverage of %s dropped from %.2f%% to %.2f%% (%.2f points; the tolerance for a changed file is %.2f).", c, b, h, b-h, fileTol))
		f.BaselineValue, f.CurrentValue = gate.Float(round2(b)), gate.Float(round2(h))
		out = append(out, f)
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
	check := func(on bool, b, h *collectors.Diagnostics, what, rule string) {
		if !on || b == nil || h == nil || h.Errors <= b.Errors {
			return
		}
		f := measuredFinding(gate.ValidationBypass, gate.SeverityHigh, rule, "", "",
			fmt.Sprintf("%s errors rose from %d to %d; the configuration makes this blocking.", what, b.Errors, h.Errors))
		f.BaselineValue, f.CurrentValue = gate.Float(float64(b.Errors)), gate.Float(float64(h.Errors))
		out = append(out, f)
	}
	if base != nil && head != nil {
		check(cc.BlockOnTypeErrors, base.TypeCheck, head.TypeCheck, "type-check", "type-errors-increased")
		check(cc.BlockOnLintErrors, base.Lint, head.Lint, "lint", "lint-errors-increased")
	}
	return out
}

func round2(v float64) float64 { return float64(int64(v*100+0.5)) / 100 }
