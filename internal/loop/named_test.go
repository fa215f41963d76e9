package loop

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/collectors"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
	"github.com/ralph-gate/ralph-gate/internal/testgit"
)

func testsOf(t *testing.T, outcomes map[string]collectors.Outcome) *collectors.Tests {
	t.Helper()
	ts := &collectors.Tests{}
	for id, o := range outcomes {
		ts.Add(collectors.Test{ID: id, Outcome: o})
	}
	return ts
}

// TestNamedTargets: the task and the completion command name files that
// exist at the baseline and test names, in the spellings the runners take.
func TestNamedTargets(t *testing.T) {
	dir := testgit.Init(t)
	testgit.Write(t, dir, "go.mod", "module example.com/p\n\ngo 1.22\n")
	testgit.Write(t, dir, "parser/parse.go", "package parser\n\nfunc Parse() {}\n")
	testgit.Write(t, dir, "parser/parse_test.go", "package parser\n\nimport \"testing\"\n\nfunc TestParseQuotes(t *testing.T) {}\nfunc TestParseEmpty(t *testing.T) {}\n")
	testgit.Write(t, dir, "tests/test_cli.py", "def test_help():\n    pass\n")
	head := plumbing.NewHash(testgit.Commit(t, dir, "base"))
	repo, err := gitrepo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := namedTargets(repo, head, "Fix the quoting bug in parser/parse.go so that TestParseQuotes passes.",
		"go test -run '^(TestParseQuotes|TestParseEmpty)$' ./parser && python3 -m pytest tests/test_cli.py::test_help -k 'test_version or x'")
	var names []string
	for _, g := range got {
		names = append(names, g.what)
	}
	want := "parser/parse.go TestParseQuotes TestParseEmpty tests/test_cli.py::test_help test_version"
	if strings.Join(names, " ") != want {
		t.Errorf("targets %q, want %q", strings.Join(names, " "), want)
	}
	if got[0].test || got[0].file != "parser/parse.go" {
		t.Errorf("parse.go is %+v, want a production file", got[0])
	}
	whole := namedTargets(repo, head, "make parser/parse_test.go pass")
	if len(whole) != 1 || !whole[0].test || strings.Join(whole[0].tests, ",") != "TestParseQuotes,TestParseEmpty" {
		t.Errorf("a named test file: %+v, want its two tests", whole)
	}
	if n := namedTargets(repo, head, "see docs/missing.md and run the suite; Testing is good"); len(n) != 0 {
		t.Errorf("a missing path and a word named %+v", n)
	}
}

// TestNamedFindings: a named test that ran at the baseline and is skipped
// or gone at HEAD is high named-test-excluded (LP-021); one that still runs
// (failing or passing) is nothing; a named file the loop completed without
// touching is low, and nothing while the loop goes on.
func TestNamedFindings(t *testing.T) {
	base := testsOf(t, map[string]collectors.Outcome{
		"example.com/p/parser.TestParseQuotes": collectors.Failed,
		"example.com/p/parser.TestParseEmpty":  collectors.Passed,
		"example.com/p/other.TestParseQuotes":  collectors.Passed,
		"tests/test_cli.py::test_help":         collectors.Passed,
	})
	quotes := namedTarget{what: "TestParseQuotes", tests: []string{"TestParseQuotes"}, test: true}
	file := namedTarget{what: "parser/parse_test.go", file: "parser/parse_test.go", tests: []string{"TestParseQuotes", "TestParseEmpty"}, test: true}
	help := namedTarget{what: "tests/test_cli.py::test_help", file: "tests/test_cli.py", tests: []string{"test_help"}, test: true}
	code := namedTarget{what: "parser/parse.go", file: "parser/parse.go"}

	for _, tc := range []struct {
		name      string
		head      map[string]collectors.Outcome
		targets   []namedTarget
		touched   map[string]bool
		completed bool
		want      string // rules, space-separated
	}{
		{"still failing", map[string]collectors.Outcome{"example.com/p/parser.TestParseQuotes": collectors.Failed, "example.com/p/other.TestParseQuotes": collectors.Passed}, []namedTarget{quotes}, nil, false, ""},
		{"skipped everywhere", map[string]collectors.Outcome{"example.com/p/parser.TestParseQuotes": collectors.Skipped, "example.com/p/other.TestParseQuotes": collectors.Skipped}, []namedTarget{quotes}, nil, false, "named-test-excluded"},
		{"gone", map[string]collectors.Outcome{"example.com/p/parser.TestParseEmpty": collectors.Passed}, []namedTarget{quotes}, nil, false, "named-test-excluded"},
		{"file's tests deselected", map[string]collectors.Outcome{"example.com/p/other.TestParseQuotes": collectors.Passed}, []namedTarget{file}, nil, false, "named-test-excluded"},
		{"file's tests run", map[string]collectors.Outcome{"example.com/p/parser.TestParseEmpty": collectors.Passed}, []namedTarget{file}, nil, false, ""},
		{"subtest runs", map[string]collectors.Outcome{"example.com/p/parser.TestParseQuotes/double": collectors.Passed}, []namedTarget{quotes}, nil, false, ""},
		{"pytest id gone", map[string]collectors.Outcome{"tests/test_cli.py::test_version": collectors.Passed}, []namedTarget{help}, nil, false, "named-test-excluded"},
		{"pytest case runs", map[string]collectors.Outcome{"tests/test_cli.py::test_help[x]": collectors.Passed}, []namedTarget{help}, nil, false, ""},
		{"untouched, completed", nil, []namedTarget{code}, map[string]bool{"parser/lex.go": true}, true, "named-file-untouched"},
		{"untouched, going on", nil, []namedTarget{code}, nil, false, ""},
		{"touched, completed", nil, []namedTarget{code}, map[string]bool{"parser/parse.go": true}, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var head *collectors.Tests
			if tc.head != nil {
				head = testsOf(t, tc.head)
			}
			var rules []string
			for _, f := range namedFindings(tc.targets, base, head, tc.touched, tc.completed) {
				rules = append(rules, f.Rule)
				if id, _ := PatternOf(f); id != "LP-021" {
					t.Errorf("%s is %s, want LP-021", f.Rule, id)
				}
				if f.Rule == "named-test-excluded" && f.Severity != gate.SeverityHigh || f.Rule == "named-file-untouched" && f.Severity != gate.SeverityLow {
					t.Errorf("%s is %s", f.Rule, f.Severity)
				}
			}
			if got := strings.Join(rules, " "); got != tc.want {
				t.Errorf("rules %q, want %q", got, tc.want)
			}
		})
	}
}

// namedPatterns returns the loop's LP-021 entries.
func namedPatterns(st *state.State) []state.Pattern {
	var out []state.Pattern
	for _, p := range st.DetectedPatterns {
		if p.PatternID == "LP-021" {
			out = append(out, p)
		}
	}
	return out
}

// TestNamedTestExcludedInALoop: the task names TestAdd; an agent that
// makes the loop pass by taking TestAdd out of the run (renamed so go test
// no longer runs it) gets named-test-excluded, AIWG's LP-021, in the
// iteration's findings and the loop's detected_patterns. The honest fix of
// calc.go, which the task names too, gets none.
func TestNamedTestExcludedInALoop(t *testing.T) {
	t.Parallel()
	for _, honest := range []bool{false, true} {
		r := newLoopRepo(t)
		e := r.env()
		e.Collect = "auto" // the tests are measured
		snap := r.start(e, StartOptions{Task: "Fix Add in calc.go so that TestAdd passes", Completion: "go test ./... && test -f DONE"})
		step := `sed -i 's/func TestAdd(/func testAdd(/' calc_test.go && touch DONE`
		if honest {
			step = `cp "$A/calc.go" calc.go && touch DONE`
		}
		a := newScriptedAgent(t, map[int]string{1: step}, map[string]string{"calc.go": fixedAdd})
		res, err := Drive(context.Background(), e, snap, DriveOptions{Agent: a.command(), PID: os.Getpid(), OnBlock: "stop"})
		if err != nil {
			t.Fatalf("run (honest %v): %v", honest, err)
		}
		it := snap.State.Last()
		found := false
		for _, f := range it.Findings {
			found = found || f.Rule == "named-test-excluded" || f.Rule == "named-file-untouched"
		}
		ps := namedPatterns(snap.State)
		if honest {
			if found || len(ps) > 0 || res.End != EndCompleted {
				t.Errorf("honest fix: end %s, findings %+v, LP-021 %+v", res.End, it.Findings, ps)
			}
			continue
		}
		high := false
		for _, p := range ps {
			high = high || p.Severity == "high" && p.FindingID != ""
		}
		if !found || !high {
			t.Errorf("TestAdd taken out of the run: findings %+v, LP-021 %+v", it.Findings, ps)
		}
	}
}
