package report

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// The expected strings follow @actions/core's command.ts: escapeData replaces
// % \r \n, escapeProperty also : and ,.
func TestGitHubEscaping(t *testing.T) {
	tests := []struct {
		name    string
		finding gate.Finding
		want    string
	}{
		{
			name: "percent newline and carriage return in the message",
			finding: gate.Finding{Type: gate.TestDeletion, Severity: gate.SeverityCritical, File: "a_test.go", Line: 3, Net: true,
				Message: "coverage 100% -> 50%\r\nsee: a, b"},
			want: "::error file=a_test.go,line=3,title=ralph-gate%3A test_deletion (critical)::coverage 100%25 -> 50%25%0D%0Asee: a, b",
		},
		{
			name: "commas colons and percent in the file",
			finding: gate.Finding{Type: gate.ErrorSuppression, Severity: gate.SeverityMedium, File: "dir,x/a:b%20.go", Line: 7, Net: true,
				Message: "::set-output name=x::y"},
			want: "::warning file=dir%2Cx/a%3Ab%2520.go,line=7,title=ralph-gate%3A error_suppression (medium)::::set-output name=x::y",
		},
		{
			name: "already escaped text is escaped again",
			finding: gate.Finding{Type: gate.FeatureRemoval, Severity: gate.SeverityLow, File: "x.go", Net: true,
				Message: "%0A is not a newline", Symbol: "A,B:C"},
			want: "::notice file=x.go,title=ralph-gate%3A feature_removal (low)::%250A is not a newline [A,B:C]",
		},
		{
			name: "no file",
			finding: gate.Finding{Type: gate.CoverageRegression, Severity: gate.SeverityHigh, Net: true,
				Message: "Coverage fell\nby 3 points"},
			want: "::error title=ralph-gate%3A coverage_regression (high)::Coverage fell%0Aby 3 points",
		},
		{
			name: "suppressed is a notice",
			finding: gate.Finding{Type: gate.TestSkipping, Severity: gate.SeverityHigh, File: "t.py", Line: 1, Net: true,
				Test: "test_x", Message: "skipped", Suppressed: "ticket 12, until v2"},
			want: "::notice file=t.py,line=1,title=ralph-gate%3A test_skipping (high) suppressed::skipped [test_x] (suppressed: ticket 12, until v2)",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep := &gate.Report{Findings: []gate.Finding{tc.finding}, FailOn: gate.SeverityHigh}
			lines := strings.Split(strings.TrimSuffix(string(render(t, GitHub, rep, Options{})), "\n"), "\n")
			if len(lines) != 2 {
				t.Fatalf("got %d lines, want an annotation and a summary:\n%s", len(lines), strings.Join(lines, "\n"))
			}
			if diff := cmp.Diff(tc.want, lines[0]); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if !strings.HasPrefix(lines[1], "ralph-gate: ") || strings.HasPrefix(lines[1], "::") {
				t.Errorf("summary line = %q", lines[1])
			}
		})
	}
}

func TestGitHubSkipsTransient(t *testing.T) {
	out := string(render(t, GitHub, fullReport(), Options{}))
	if strings.Contains(out, "test_skipping") {
		t.Errorf("transient finding annotated:\n%s", out)
	}
	// Five after the first of six net findings, then a notice for each of
	// the three runs of changed lines no test ran.
	if got := strings.Count(out, "\n::"); got != 8 {
		t.Errorf("%d annotations after the first, want 8 (six net findings, three uncovered runs):\n%s", got, out)
	}
}
