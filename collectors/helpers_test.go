package collectors

import (
	"bytes"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// summary is a Result in a stable, readable form for golden files.
type summary struct {
	Tests         *TestCounts        `json:"tests,omitempty"`
	Outcomes      map[string]string  `json:"outcomes,omitempty"`
	Coverage      *float64           `json:"coverage,omitempty"`
	Branches      *float64           `json:"branch_coverage,omitempty"`
	Files         map[string]fileCov `json:"files,omitempty"`
	Lint          *Diagnostics       `json:"lint,omitempty"`
	TypeCheck     *Diagnostics       `json:"type_check,omitempty"`
	BuildFailures []string           `json:"build_failures,omitempty"`
	Messages      map[string]string  `json:"messages,omitempty"`
	Integrity     []string           `json:"integrity,omitempty"`
}

type fileCov struct {
	LinesFound    int   `json:"lines_found,omitempty"`
	LinesHit      int   `json:"lines_hit,omitempty"`
	Statements    int64 `json:"statements,omitempty"`
	StatementsHit int64 `json:"statements_hit,omitempty"`
	Branches      int64 `json:"branches,omitempty"`
	BranchesHit   int64 `json:"branches_hit,omitempty"`
}

func summarize(r *Result) summary {
	var s summary
	if r.Tests != nil {
		c := r.Tests.Counts()
		s.Tests = &c
		s.Outcomes = map[string]string{}
		s.Messages = map[string]string{}
		for t := range r.Tests.All() {
			o := t.Outcome.String()
			if t.Flaky {
				o += " (flaky)"
			}
			s.Outcomes[t.ID] = o
			if t.Message != "" {
				s.Messages[t.ID] = firstLine(t.Message)
			}
		}
	}
	if r.Coverage != nil {
		if pct, ok := r.Coverage.Percent(); ok {
			pct = math.Round(pct*1000) / 1000
			s.Coverage = &pct
		}
		if pct, ok := r.Coverage.BranchPercent(); ok {
			pct = math.Round(pct*1000) / 1000
			s.Branches = &pct
		}
		s.Files = map[string]fileCov{}
		for _, p := range r.Coverage.Paths() {
			f := r.Coverage.Files[p]
			var fc fileCov
			fc.LinesFound, fc.LinesHit = f.Lines()
			fc.Statements, fc.StatementsHit = f.Statements()
			fc.Branches, fc.BranchesHit = f.Branches()
			s.Files[p] = fc
		}
	}
	s.Lint, s.TypeCheck = r.Lint, r.TypeCheck
	for _, b := range r.BuildFailures {
		s.BuildFailures = append(s.BuildFailures, b.Package+": "+b.ImportPath)
	}
	sort.Strings(s.BuildFailures)
	for _, p := range r.Integrity {
		s.Integrity = append(s.Integrity, p.Package+": "+p.Problem)
	}
	return s
}

// checkGolden compares got with the golden file, or rewrites it with -update.
func checkGolden(t *testing.T, path string, got summary) {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(got); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	if *update {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(b)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}

// parseFile parses a fixture with the parser of its format.
func parseFile(t *testing.T, format, path string) (*Result, error) {
	t.Helper()
	p, err := New(format)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	return p.Parse(filepath.ToSlash(path), f)
}

func mustParse(t *testing.T, p Parser, input string) *Result {
	t.Helper()
	r, err := p.Parse("input", strings.NewReader(input))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return r
}
