package loop

import (
	"fmt"
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scanners"
)

// point is one earlier measurement of the loop: the baseline (iteration 0) or
// a recorded iteration, with the tests that failed there.
type point struct {
	iteration int
	commit    plumbing.Hash
	failing   map[string]bool
}

// HistoryFindings uses the loop's own history as evidence no single diff has:
// a test that failed in an earlier iteration and passes at head, where the
// change since then edited that test's own body (its assertions or expected
// values) but no code under test, was made to pass by rewriting the check.
// That is reported as assertion_weakening, critical, naming both iterations.
// passing are the test ids that pass at head.
func HistoryFindings(repo *gitrepo.Repo, st *state.State, head plumbing.Hash, n int, passing []string) ([]gate.Finding, error) {
	points := []point{{iteration: 0, commit: plumbing.NewHash(st.RalphGate.BaselineCommit), failing: set(st.RalphGate.BaselineFailing)}}
	for _, it := range st.IterationHistory {
		if it.Iteration < n {
			points = append(points, point{it.Iteration, plumbing.NewHash(it.Commit), set(it.FailingTests)})
		}
	}
	type flip struct {
		id   string
		from point
	}
	var flips []flip
	for _, id := range passing {
		for i := len(points) - 1; i >= 0; i-- {
			if points[i].failing[id] {
				flips = append(flips, flip{id, points[i]})
				break
			}
		}
	}
	if len(flips) == 0 {
		return nil, nil
	}
	var out []gate.Finding
	diffs := map[plumbing.Hash][]gitrepo.Change{}
	for _, fl := range flips {
		changes, ok := diffs[fl.from.commit]
		if !ok {
			var err error
			if changes, err = repo.Diff(fl.from.commit, head); err != nil {
				return nil, fmt.Errorf("history of test %s: %w", fl.id, err)
			}
			diffs[fl.from.commit] = changes
		}
		f, err := editedToPass(repo, fl.id, fl.from, head, n, changes)
		if err != nil {
			return nil, err
		}
		if f != nil {
			out = append(out, *f)
		}
	}
	return out, nil
}

func editedToPass(repo *gitrepo.Repo, id string, from point, head plumbing.Hash, n int, changes []gitrepo.Change) (*gate.Finding, error) {
	for _, c := range changes {
		p := c.To.Path
		if p == "" || c.From.Path == "" {
			continue
		}
		ex := scanners.ForPath(p)
		if ex == nil || !ex.IsTestFile(p) {
			continue
		}
		before, err := extract(repo, ex, from.commit, c.From.Path)
		if err != nil || before == nil {
			continue
		}
		after, err := extract(repo, ex, head, p)
		if err != nil || after == nil {
			continue
		}
		tb, ta := findTest(before, id), findTest(after, id)
		if tb == nil || ta == nil || tb.Fingerprint == ta.Fingerprint {
			continue
		}
		if code := codeChanged(changes, p, ex); code != "" {
			return nil, nil // the code under test changed too: a real fix
		}
		iterName := fmt.Sprintf("iteration %d", from.iteration)
		if from.iteration == 0 {
			iterName = "the baseline"
		}
		// The loop history's textbook reward hack.
		rule := gate.RuleHistoryTestEditedToPass
		return &gate.Finding{
			ID:       gate.MakeID(rule.Type, rule.ID, p, ta.ID, from.commit.String()),
			Type:     rule.Type,
			Severity: gate.SeverityCritical,
			File:     p,
			Line:     ta.Line,
			Test:     ta.ID,
			Net:      true,
			Evidence: gate.EvidenceHistory,
			Rule:     rule.ID,
			Message: fmt.Sprintf("%s failed at %s and passes in iteration %d, but since then only the test itself changed "+
				"(its assertions or expected values), not the code under test: the check was rewritten to pass", id, iterName, n),
		}, nil
	}
	return nil, nil
}

func extract(repo *gitrepo.Repo, ex testscan.Extractor, commit plumbing.Hash, p string) (*testscan.File, error) {
	src, err := repo.ReadFile(commit, p)
	if err != nil {
		return nil, err
	}
	return ex.Extract(p, src)
}

// goTestName finds the test name in a Go test id ("example.com/m/calc.TestX/sub").
var goTestName = lazyre.New(`\.((?:Test|Benchmark|Fuzz|Example)[^./]*(?:/.*)?)$`)

// findTest finds the extracted test a measured test id names: the same test
// (Go "pkg.TestX/sub", JUnit "Class.method", JS "suite > test"), else, for a
// parent whose subtests are the test cases (table-driven Go tests), its first
// subtest.
func findTest(f *testscan.File, id string) *testscan.TestCase {
	name := id
	if m := goTestName.FindStringSubmatch(id); m != nil {
		name = m[1]
	}
	for i := range f.Tests {
		t := &f.Tests[i]
		if t.ID == name || strings.HasSuffix(id, "."+t.ID) || strings.HasSuffix(id, " > "+t.ID) || strings.HasSuffix(id, "::"+t.ID) {
			return t
		}
	}
	top, _, _ := strings.Cut(name, "/")
	for i := range f.Tests {
		t := &f.Tests[i]
		if t.ID == top || strings.HasPrefix(t.ID, name+"/") {
			return t
		}
	}
	return nil
}

// codeChanged returns a changed path that is code under test for the test
// file: for Go a non-test file of the same package directory, for other
// languages any non-test source file. Test files, testdata and documentation
// are not code under test.
func codeChanged(changes []gitrepo.Change, testFile string, ex testscan.Extractor) string {
	dir := path.Dir(testFile)
	for _, c := range changes {
		p := c.To.Path
		if p == "" {
			p = c.From.Path
		}
		if p == testFile || strings.Contains("/"+p, "/testdata/") || isDoc(p) {
			continue
		}
		other := scanners.ForPath(p)
		if other != nil && other.IsTestFile(p) {
			continue
		}
		if ex.Lang() == testscan.Go {
			if path.Dir(p) == dir && strings.HasSuffix(p, ".go") {
				return p
			}
			continue
		}
		return p
	}
	return ""
}

func isDoc(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".txt", ".rst", ".adoc":
		return true
	}
	return strings.HasPrefix(p, "docs/")
}

func set(ids []string) map[string]bool {
	m := make(map[string]bool, len(ids))
	for _, id := range ids {
		m[id] = true
	}
	return m
}
