package pipeline

import (
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/collectors"
	"github.com/ralph-gate/ralph-gate/internal/collect"
	"github.com/ralph-gate/ralph-gate/internal/gate"
)

func mutantTests(outcomes map[string]collectors.Outcome) *collectors.Tests {
	ts := &collectors.Tests{}
	for id, o := range outcomes {
		ts.Add(collectors.Test{ID: id, Outcome: o, Message: "want 90, got 100"})
	}
	return ts
}

// TestJudgeMutant: a test failing with the mutant that did not fail at
// HEAD kills it; one that failed at HEAD already does not; a build failure
// is not viable; a run without its report kills it; no test at all is
// unmeasured, never a survivor.
func TestJudgeMutant(t *testing.T) {
	head := &collect.Measurement{Result: &collectors.Result{Tests: mutantTests(map[string]collectors.Outcome{
		"p.TestA": collectors.Passed, "p.TestFlaky": collectors.Failed,
	})}}
	for _, tc := range []struct {
		name     string
		r        *collectors.Result
		want, by string
	}{
		{"killed", &collectors.Result{Tests: mutantTests(map[string]collectors.Outcome{"p.TestA": collectors.Failed})}, gate.MutantKilled, "p.TestA"},
		{"failing at HEAD already", &collectors.Result{Tests: mutantTests(map[string]collectors.Outcome{"p.TestA": collectors.Passed, "p.TestFlaky": collectors.Failed})}, gate.MutantSurvived, ""},
		{"does not build", &collectors.Result{BuildFailures: []collectors.BuildFailure{{Package: "p", Output: "p.go:3: x declared and not used"}}, Tests: mutantTests(map[string]collectors.Outcome{"p": collectors.Failed})}, gate.MutantNotViable, ""},
		{"no report", &collectors.Result{Integrity: []collectors.IntegrityProblem{{Problem: "the run wrote no report"}}}, gate.MutantKilled, ""},
		{"nothing ran", &collectors.Result{Tests: mutantTests(nil)}, gate.MutantUnmeasured, ""},
		{"no result", nil, gate.MutantUnmeasured, ""},
	} {
		got, by, detail := judgeMutant(tc.r, head)
		if got != tc.want || by != tc.by {
			t.Errorf("%s: %s by %q (%s), want %s by %q", tc.name, got, by, detail, tc.want, tc.by)
		}
	}
}

// TestCoveredLines: changed lines changed-line coverage lists as uncovered
// get no mutant, nor do a file the report does not list; others keep all.
func TestCoveredLines(t *testing.T) {
	cl := &gate.ChangedLines{
		Files:      []gate.ChangedFileCoverage{{File: "a.go", Uncovered: []int{3, 5}}},
		Unmeasured: []string{"b.go"},
	}
	for _, tc := range []struct {
		file    string
		kept    string
		dropped int
	}{
		{"a.go", "2 4", 2},
		{"b.go", "", 3},
		{"c.go", "2 3 4", 0},
	} {
		var lines []int
		if tc.file == "a.go" {
			lines = []int{2, 3, 4, 5}
		} else {
			lines = []int{2, 3, 4}
		}
		kept, dropped := coveredLines(cl, tc.file, lines)
		var ks []string
		for _, k := range kept {
			ks = append(ks, strings.TrimSpace(string(rune('0'+k))))
		}
		if strings.Join(ks, " ") != tc.kept || dropped != tc.dropped {
			t.Errorf("%s: kept %v dropped %d, want %q and %d", tc.file, kept, dropped, tc.kept, tc.dropped)
		}
	}
}
