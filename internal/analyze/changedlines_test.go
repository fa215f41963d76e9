package analyze

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/collectors"
	"github.com/ralph-gate/ralph-gate/internal/gate"
)

func parseReport(t *testing.T, format, text string) *collectors.Result {
	t.Helper()
	p, err := collectors.New(format)
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Parse("report", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestChangedLineCoverage(t *testing.T) {
	head := parseReport(t, collectors.FormatLCOV,
		"SF:src/div.js\nDA:3,1\nDA:4,0\nDA:5,2\nend_of_record\n"+
			"SF:/abs/ci/src/mul.js\nDA:1,0\nDA:2,0\nend_of_record\n")
	changed := map[string][]int{
		"src/div.js":           {1, 2, 3, 4, 5}, // 3 and 5 ran, 4 did not; 1-2 are not code
		"src/mul.js":           {1},             // matched by suffix; not run
		"src/new.js":           {1, 2},          // a source file the report does not list
		"src/div.test.js":      {1, 2},          // a test file: not expected in the report
		"README.md":            {1},             // another kind of file
		"src/comments-only.js": nil,
	}
	got := ChangedLineCoverage(head, changed, gate.Float(80))
	want := &gate.ChangedLines{
		Percentage: gate.Float(50), Covered: 2, Total: 4, Unit: "line", Min: gate.Float(80),
		Files: []gate.ChangedFileCoverage{
			{File: "src/div.js", Covered: 2, Total: 3, Percentage: 66.67, Uncovered: []int{4}},
			{File: "src/mul.js", Covered: 0, Total: 1, Percentage: 0, Uncovered: []int{1}},
		},
		Unmeasured: []string{"src/comments-only.js", "src/new.js"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ChangedLineCoverage (-want +got):\n%s", diff)
	}

	fs := ChangedLineFindings(got, gate.Float(80))
	if len(fs) != 1 || fs[0].Type != gate.CoverageRegression || fs[0].Severity != gate.SeverityHigh ||
		!strings.Contains(fs[0].Message, "50.00% of the 4 executable lines") || !strings.Contains(fs[0].Message, "src/div.js 2 of 3") {
		t.Errorf("below the minimum: %+v", fs)
	}
	if fs := ChangedLineFindings(got, gate.Float(50)); len(fs) != 0 {
		t.Errorf("at the minimum: %+v", fs)
	}
	if fs := ChangedLineFindings(got, nil); len(fs) != 0 {
		t.Errorf("no minimum: %+v", fs)
	}
}

func TestChangedLineCoverageFailsClosed(t *testing.T) {
	// A minimum with no coverage at HEAD is unverified, never met.
	if got := ChangedLineCoverage(&collectors.Result{}, map[string][]int{"a.go": {1}}, nil); got != nil {
		t.Fatalf("no coverage measured: %+v, want nil", got)
	}
	fs := ChangedLineFindings(nil, gate.Float(70))
	if len(fs) != 1 || fs[0].Type != gate.Unverified || fs[0].Severity != gate.SeverityHigh {
		t.Errorf("unmeasured minimum: %+v", fs)
	}
	// A change with no executable line has no percentage and passes any minimum.
	head := parseReport(t, collectors.FormatLCOV, "SF:a.js\nDA:3,1\nend_of_record\n")
	cl := ChangedLineCoverage(head, map[string][]int{"a.js": {1}}, gate.Float(100))
	if cl.Percentage != nil || cl.Total != 0 {
		t.Errorf("comment-only change: %+v", cl)
	}
	if fs := ChangedLineFindings(cl, gate.Float(100)); len(fs) != 0 {
		t.Errorf("comment-only change: %+v", fs)
	}
}
