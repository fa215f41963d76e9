package analyze

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/collectors"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// branchLCOV is an LCOV report of one file whose lines all ran, with the
// given branches, taken ones first.
func branchLCOV(t *testing.T, branches, taken int) *collectors.Result {
	t.Helper()
	var b strings.Builder
	b.WriteString("SF:src/grade.js\nDA:1,1\nDA:2,1\n")
	for i := range branches {
		n := "-"
		if i < taken {
			n = "1"
		}
		fmt.Fprintf(&b, "BRDA:%d,%d,0,%s\n", 3+i, i, n)
	}
	b.WriteString("end_of_record\n")
	return parseReport(t, collectors.FormatLCOV, b.String())
}

// branchCobertura is a Cobertura report stating a branch-rate, with one
// line of conditions that agrees with it.
func branchCobertura(t *testing.T, covered, valid int) *collectors.Result {
	t.Helper()
	return parseReport(t, collectors.FormatCobertura, fmt.Sprintf(
		`<coverage line-rate="1" branch-rate="%g" branches-valid="%d" branches-covered="%d"><packages><package><classes><class filename="grade.py"><lines><line number="1" hits="1" branch="true" condition-coverage="x%% (%d/%d)"/></lines></class></classes></package></packages></coverage>`,
		float64(covered)/float64(valid), valid, covered, covered, valid))
}

func TestBranchCoverageFindings(t *testing.T) {
	goProfile := func() *collectors.Result {
		return parseReport(t, collectors.FormatCoverProfile, "mode: set\nexample.com/m/a.go:3.24,5.2 2 1\n")
	}
	type want struct {
		rule     string
		severity gate.Severity
		base     float64
		head     float64
		message  string
	}
	for _, tc := range []struct {
		name       string
		base, head *collectors.Result
		cc         config.Compare
		want       *want
	}{
		{"equal", branchLCOV(t, 10, 8), branchLCOV(t, 10, 8), config.Compare{}, nil},
		{"rise", branchLCOV(t, 10, 6), branchLCOV(t, 12, 11), config.Compare{}, nil},
		{"within the tolerance", branchLCOV(t, 50, 45), branchLCOV(t, 50, 44), config.Compare{}, nil}, // 90% to 88%
		{"beyond the tolerance", branchLCOV(t, 20, 18), branchLCOV(t, 24, 20), config.Compare{},
			&want{"branch-coverage-dropped", gate.SeverityMedium, 90, 83.33, "branch coverage dropped from 90.00% to 83.33% (6.67 points; the tolerance is 2.00): 4 of 24 branches are untaken at HEAD, 2 of 20 at BASE."}},
		{"ten points is medium", branchLCOV(t, 10, 9), branchLCOV(t, 10, 8), config.Compare{},
			&want{"branch-coverage-dropped", gate.SeverityMedium, 90, 80, "1 of 10"}},
		{"more than ten points is high", branchLCOV(t, 10, 9), branchLCOV(t, 12, 8), config.Compare{},
			&want{"branch-coverage-dropped", gate.SeverityHigh, 90, 66.67, "4 of 12 branches are untaken at HEAD"}},
		{"taken branches removed with their code", branchLCOV(t, 10, 9), branchLCOV(t, 5, 4), config.Compare{},
			&want{"branch-coverage-dropped-covered-code-removed", gate.SeverityLow, 90, 80, "only because taken branches were removed"}},
		{"configured tolerance", branchLCOV(t, 10, 9), branchLCOV(t, 12, 8), config.Compare{BranchCoverageTolerance: gate.Float(25)}, nil},
		{"cobertura's stated branch-rate", branchCobertura(t, 9, 10), branchCobertura(t, 5, 10), config.Compare{},
			&want{"branch-coverage-dropped", gate.SeverityHigh, 90, 50, "from 90.00% to 50.00%"}},
		// Without branch data at an end nothing is claimed: MetricNotes
		// says so.
		{"no branch data at HEAD", branchLCOV(t, 10, 9), parseReport(t, collectors.FormatLCOV, "SF:src/grade.js\nDA:1,1\nDA:2,1\nend_of_record\n"), config.Compare{}, nil},
		{"go cover profiles", goProfile(), goProfile(), config.Compare{}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []gate.Finding
			for _, f := range MetricFindings(tc.base, tc.head, nil, nil, nil, tc.cc) {
				if strings.HasPrefix(f.Rule, "branch-coverage") {
					got = append(got, f)
				} else {
					t.Errorf("unexpected finding %s: %s", f.Rule, f.Message)
				}
			}
			if tc.want == nil {
				if len(got) != 0 {
					t.Errorf("findings %+v, want none", got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("findings %+v, want one %s", got, tc.want.rule)
			}
			f := got[0]
			if f.Type != gate.CoverageRegression || f.Rule != tc.want.rule || f.Severity != tc.want.severity || !f.Net || f.Evidence != gate.EvidenceMeasured ||
				f.BaselineValue == nil || *f.BaselineValue != tc.want.base || f.CurrentValue == nil || *f.CurrentValue != tc.want.head ||
				!strings.Contains(f.Message, tc.want.message) {
				t.Errorf("finding %s %s %s, %v -> %v, net %v, evidence %s: %q; want %s %s, %v -> %v, a message with %q",
					f.Type, f.Rule, f.Severity, f.BaselineValue, f.CurrentValue, f.Net, f.Evidence, f.Message,
					tc.want.rule, tc.want.severity, tc.want.base, tc.want.head, tc.want.message)
			}
		})
	}
}

func TestMetricNotes(t *testing.T) {
	withBranches := branchLCOV(t, 10, 9)
	without := parseReport(t, collectors.FormatLCOV, "SF:src/grade.js\nDA:1,1\nend_of_record\n")
	goProfile := parseReport(t, collectors.FormatCoverProfile, "mode: set\nexample.com/m/a.go:3.24,5.2 2 1\n")
	for _, tc := range []struct {
		name       string
		base, head *collectors.Result
		want       []string
	}{
		{"only BASE", withBranches, without, []string{"branch coverage not compared: measured at BASE (90.00%), and HEAD's coverage (report) has no branch data"}},
		{"only HEAD", without, withBranches, []string{"branch coverage not compared: measured at HEAD (90.00%), and BASE's coverage (report) has no branch data"}},
		{"both", withBranches, withBranches, nil},
		{"neither", without, without, nil},
		{"go cover profiles", goProfile, goProfile, nil},
		{"no coverage at an end", withBranches, &collectors.Result{}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, n := range MetricNotes(tc.base, tc.head) {
				msg, _, _ := strings.Cut(n.Message, ";")
				got = append(got, msg)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("notes (-want +got):\n%s", diff)
			}
		})
	}
}
