package analyze

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/ralph-gate/ralph-gate/collectors"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scanners"
)

// ChangedLineCoverage is diff-cover's measure: of the lines HEAD added or
// changed (changed maps a repository path to its line numbers at HEAD), the
// share that HEAD's coverage report instruments and its tests ran, per file
// and overall. Only lines the report instruments count: comments, blank lines
// and declarations are neither covered nor uncovered. A changed source file
// the report does not list, while it lists files of the same kind, is named
// in Unmeasured rather than read as covered. minPct is the configured
// coverage.changed_lines_min (nil: none). It returns nil when HEAD measured
// no coverage.
func ChangedLineCoverage(head *collectors.Result, changed map[string][]int, minPct *float64) *gate.ChangedLines {
	if head == nil || head.Coverage == nil {
		return nil
	}
	cl := &gate.ChangedLines{Unit: head.Coverage.Unit(), Min: minPct, Files: []gate.ChangedFileCoverage{}}
	exts := map[string]bool{}
	for p := range head.Coverage.Files {
		exts[path.Ext(p)] = true
	}
	paths := make([]string, 0, len(changed))
	for p := range changed {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		fc := coverageOf(head.Coverage, p)
		if fc == nil {
			if exts[path.Ext(p)] && !isTestPath(p) {
				cl.Unmeasured = append(cl.Unmeasured, p)
			}
			continue
		}
		covered, uncovered := fc.SplitLines(changed[p])
		total := len(covered) + len(uncovered)
		if total == 0 {
			continue
		}
		cl.Files = append(cl.Files, gate.ChangedFileCoverage{
			File: p, Covered: len(covered), Total: total,
			Percentage: round2(100 * float64(len(covered)) / float64(total)),
			Uncovered:  orEmpty(uncovered),
		})
		cl.Covered += len(covered)
		cl.Total += total
	}
	if cl.Total > 0 {
		cl.Percentage = gate.Float(round2(100 * float64(cl.Covered) / float64(cl.Total)))
	}
	return cl
}

// ChangedLineFindings turns changed-line coverage below the configured
// minimum into a coverage_regression, and a configured minimum that nothing
// measured into an unverified finding: a threshold the gate could not check
// never reads as met.
func ChangedLineFindings(cl *gate.ChangedLines, minPct *float64) []gate.Finding {
	if minPct == nil {
		return nil
	}
	if cl == nil {
		f := measuredNetFinding(gate.RuleChangedLinesUnmeasured, gate.SeverityHigh, "",
			fmt.Sprintf("coverage.changed_lines_min is %.2f%%, but HEAD's coverage was not measured, so the changed lines' coverage could not be checked; add a coverage report (coverprofile, lcov or cobertura) to HEAD's collectors or --report.", *minPct))
		return []gate.Finding{f}
	}
	if cl.Percentage == nil || *cl.Percentage >= *minPct {
		return nil
	}
	worst := append([]gate.ChangedFileCoverage(nil), cl.Files...)
	sort.SliceStable(worst, func(i, j int) bool { return worst[i].Total-worst[i].Covered > worst[j].Total-worst[j].Covered })
	var names []string
	for _, w := range worst {
		if w.Covered < w.Total && len(names) < 3 {
			names = append(names, fmt.Sprintf("%s %d of %d", w.File, w.Covered, w.Total))
		}
	}
	f := measuredNetFinding(gate.RuleChangedLinesCoverage, gate.SeverityHigh, "",
		fmt.Sprintf("tests cover %.2f%% of the %d executable lines this range added or changed (%d covered), below coverage.changed_lines_min %.2f%%; least covered: %s.",
			*cl.Percentage, cl.Total, cl.Covered, *minPct, strings.Join(names, ", ")))
	f.BaselineValue, f.CurrentValue = gate.Float(*minPct), gate.Float(*cl.Percentage)
	return []gate.Finding{f}
}

// measuredNetFinding is a measurement of HEAD: it holds at HEAD, so it is net.
func measuredNetFinding(r gate.Rule, sev gate.Severity, file, msg string) gate.Finding {
	f := measuredFinding(r, sev, file, "", msg)
	f.Net = true
	return f
}

// isTestPath reports whether a language's conventions make p a test file;
// test files are not expected in a coverage report.
func isTestPath(p string) bool {
	x := scanners.ForPath(p)
	return x != nil && x.IsTestFile(p)
}

func orEmpty(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}
