package main

import (
	"encoding/json"
	"strings"
	"testing"
)

type changedLinesReport struct {
	Verdict  string `json:"verdict"`
	Coverage *struct {
		Percentage *float64 `json:"percentage"`
		Covered    int      `json:"covered"`
		Total      int      `json:"total"`
		Unit       string   `json:"unit"`
		Min        *float64 `json:"min"`
		Files      []struct {
			File      string `json:"file"`
			Uncovered []int  `json:"uncovered_lines"`
		} `json:"files"`
	} `json:"changed_line_coverage"`
}

const divSrc = `
// Div divides, and says when it cannot.
func Div(a, b int) (int, bool) {
	if b == 0 {
		return 0, false
	}
	return a / b, true
}
`

const divTest = `
func TestDiv(t *testing.T) {
	if q, ok := Div(6, 3); !ok || q != 2 {
		t.Errorf("Div(6, 3) = %d, %v", q, ok)
	}
}
`

const divByZeroTest = `
func TestDivByZero(t *testing.T) {
	if _, ok := Div(1, 0); ok {
		t.Error("Div(1, 0) succeeded")
	}
}
`

// TestChangedLineCoverage: coverage.changed_lines_min in BASE's configuration
// blocks a change whose new lines no test runs, names the lines, and passes
// once a test runs them; every format says the figure.
func TestChangedLineCoverage(t *testing.T) {
	slow(t)
	t.Parallel()
	r := goModule(t)
	// The overall and per-file tolerances are opened wide so that only the
	// changed-line minimum can block.
	r.write(".ralph-gate.yml", "coverage:\n  changed_lines_min: 80\ncompare:\n  coverage_tolerance: 100\n  changed_file_tolerance: 100\n")
	r.commit("gate config")
	base := r.git("rev-parse", "HEAD")

	r.write("calc.go", calcSrc+divSrc)
	r.write("calc_test.go", calcTest+divTest)
	r.commit("add Div, tested on one branch")
	compareBlocks(t, r, base, "coverage_regression", "changed-lines-coverage", "of the 5 executable lines", "below coverage.changed_lines_min 80.00%", "calc.go 3 of 5")
	res := runGate(t, r.dir, "", "compare", "--format", "json", base, "HEAD")
	var cl changedLinesReport
	if err := json.Unmarshal([]byte(res.stdout), &cl); err != nil || cl.Coverage == nil {
		t.Fatalf("changed_line_coverage missing (%v): %s", err, res.stdout)
	}
	c := cl.Coverage
	if c.Percentage == nil || *c.Percentage != 60 || c.Covered != 3 || c.Total != 5 || c.Unit != "statement" || c.Min == nil || *c.Min != 80 {
		t.Errorf("changed_line_coverage = %+v", c)
	}
	// Div's "return 0, false" and its closing brace: lines 12 and 13 of
	// calc.go (calcSrc is 7 lines, then a blank line, the comment and the func).
	if len(c.Files) != 1 || c.Files[0].File != "calc.go" || len(c.Files[0].Uncovered) != 2 || c.Files[0].Uncovered[0] != 12 {
		t.Errorf("files = %+v", c.Files)
	}
	for _, tc := range []struct{ format, want string }{
		{"text", "Changed-line coverage: 60.00% (3 of 5 executable lines"},
		{"text", "calc.go: 60.00% (3 of 5), not run: 12-13"},
		{"markdown", "| `calc.go` | 60.00% | 3 of 5 | 12-13 |"},
		{"github", "::notice file=calc.go,line=12,endLine=13,"},
		{"sarif", `"changedLineCoverage"`},
	} {
		res := runGate(t, r.dir, "", "compare", "--format", tc.format, base, "HEAD")
		if res.code != 1 || !strings.Contains(res.stdout, tc.want) {
			t.Errorf("--format %s: exit %d, want 1 and %q in:\n%s%s", tc.format, res.code, tc.want, res.stdout, res.stderr)
		}
	}

	// A test for the other branch: every new line runs, the gate passes.
	r.write("calc_test.go", calcTest+divTest+divByZeroTest)
	r.commit("test Div by zero")
	res = runGate(t, r.dir, "", "compare", base, "HEAD")
	if res.code != 0 || !strings.Contains(res.stdout, "Changed-line coverage: 100.00% (5 of 5") {
		t.Errorf("all lines run: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
}

// TestChangedLineMinimumUnmeasured: a minimum the gate cannot check, because
// HEAD's collectors measure no coverage, is an unverified finding, never met.
func TestChangedLineMinimumUnmeasured(t *testing.T) {
	t.Parallel()
	r := goModule(t)
	r.write(".ralph-gate.yml", `coverage:
  changed_lines_min: 80
collectors:
  - name: unit
    argv: [go, test, -json, ./...]
    tests: true
    reports:
      - {format: gotest, stdout: true}
`)
	r.commit("gate config without coverage")
	base := r.git("rev-parse", "HEAD")
	r.write("calc.go", calcSrc+divSrc)
	r.commit("add Div")
	compareBlocks(t, r, base, "unverified", "changed-lines-unmeasured", "changed_lines_min is 80.00%", "was not measured")
}

// TestChangedLineMinimumBadConfig: a minimum that is not a percentage exits 2
// naming the file.
func TestChangedLineMinimumBadConfig(t *testing.T) {
	t.Parallel()
	r := goModule(t)
	r.write(".ralph-gate.yml", "coverage:\n  changed_lines_min: 180\n")
	r.commit("bad config")
	base := r.git("rev-parse", "HEAD")
	r.write("calc.go", calcSrc+divSrc)
	r.commit("add Div")
	res := runGate(t, r.dir, "", "compare", base, "HEAD")
	if res.code != 2 || !strings.Contains(res.stderr, ".ralph-gate.yml") || !strings.Contains(res.stderr, "changed_lines_min") {
		t.Errorf("exit %d, want 2 naming the file and the field: %s", res.code, res.stderr)
	}
}
