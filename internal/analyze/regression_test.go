package analyze

import (
	"testing"

	"github.com/ralph-gate/ralph-gate/collectors"
)

// TestUnfinishedUnits: a Go package whose tests claim success at HEAD but
// whose test binary wrote no coverage is not finished; one that wrote its
// profile, or that reports its crash as a failed test, is left to the other
// checks.
func TestUnfinishedUnits(t *testing.T) {
	merge := func(parts ...*collectors.Result) *collectors.Result {
		out := &collectors.Result{}
		for _, p := range parts {
			if p.Tests != nil {
				out.Tests = p.Tests
			}
			if p.Coverage != nil {
				out.Coverage = p.Coverage
			}
		}
		return out
	}
	events := func(outcome string) string {
		return `{"Action":"run","Package":"example.com/calc","Test":"TestMul"}` + "\n" +
			`{"Action":"` + outcome + `","Package":"example.com/calc","Test":"TestMul"}` + "\n" +
			`{"Action":"` + outcome + `","Package":"example.com/calc"}` + "\n"
	}
	profile := "mode: set\nexample.com/calc/calc.go:3.24,3.38 1 1\n"
	base := merge(parseReport(t, collectors.FormatGoTest, events("pass")), parseReport(t, collectors.FormatCoverProfile, profile))
	tests := []struct {
		name    string
		head    *collectors.Result
		flagged bool
	}{
		{"passes without a profile", merge(parseReport(t, collectors.FormatGoTest, events("pass")), parseReport(t, collectors.FormatCoverProfile, "mode: set\n")), true},
		{"passes with its profile", merge(parseReport(t, collectors.FormatGoTest, events("pass")), parseReport(t, collectors.FormatCoverProfile, profile)), false},
		{"fails without a profile", merge(parseReport(t, collectors.FormatGoTest, events("fail")), parseReport(t, collectors.FormatCoverProfile, "mode: set\n")), false},
		{"no coverage measured at HEAD", parseReport(t, collectors.FormatGoTest, events("pass")), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, got := unfinishedUnits(base, tc.head)["example.com/calc"]
			if got != tc.flagged {
				t.Errorf("flagged = %v, want %v", got, tc.flagged)
			}
		})
	}
}
