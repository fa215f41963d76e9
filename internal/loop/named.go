package loop

import (
	"fmt"
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/collectors"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scanners"
)

// A loop's task and completion command name what the work is about: a
// test to make pass (`go test -run TestParse ./parser`, `pytest
// tests/test_parser.py::test_quotes`), a file to change. AIWG's LP-021,
// scope creep avoidance, is the agent steering around them: the named
// test no longer runs, or the named file is never touched while the loop
// declares itself done.

// namedTarget is a test or a file the task or the completion command names.
type namedTarget struct {
	// what is the name as written (a test name, a path).
	what string
	// file is the path at the baseline when what is a file.
	file string
	// tests are the test names to look for: what itself, or a named test
	// file's tests at the baseline.
	tests []string
	// test is set when the target is a test (or a test file).
	test bool
}

var (
	// testNameRe are the test names the tokens may be: Go's TestX and
	// FuzzX, Python's test_x and TestX classes.
	testNameRe = lazyre.New(`^(?:(?:Test|Fuzz)[A-Z0-9_]\w*|test_\w+)$`)
	// nameSplit splits a token into the pieces a name can be: a -run
	// pattern's alternatives, a pytest id's parts, a -k expression's words.
	nameSplit = lazyre.New(`::|[|^$()\[\]/,:"'` + "`" + `=]|\\.`)
)

// namedTargets reads text (the task, the completion command) for paths that
// exist at the baseline and test names, each once, in order.
func namedTargets(repo *gitrepo.Repo, baseline plumbing.Hash, texts ...string) []namedTarget {
	var out []namedTarget
	seen := map[string]bool{}
	add := func(t namedTarget) {
		if !seen[t.what] {
			seen[t.what] = true
			out = append(out, t)
		}
	}
	for _, text := range texts {
		for _, tok := range strings.FieldsFunc(text, func(r rune) bool {
			return r == ' ' || r == '\t' || r == '\n' || r == '"' || r == '\'' || r == '`' || r == ';' || r == '&' || r == '(' || r == ')'
		}) {
			tok = strings.TrimRight(tok, ".,:;!?")
			file, rest, _ := strings.Cut(tok, "::")
			file = strings.TrimPrefix(file, "./")
			if strings.Contains(file, ".") && !strings.HasPrefix(file, "-") {
				if src, err := repo.ReadFile(baseline, file); err == nil {
					t := namedTarget{what: file, file: file}
					if x := scanners.ForPath(file); x != nil && x.IsTestFile(file) {
						t.test = true
						if f, err := x.Extract(file, src); err == nil {
							for _, tc := range f.Tests {
								t.tests = append(t.tests, topName(tc.ID))
							}
						}
					}
					if rest != "" {
						// A pytest id: the test in the file, not any test so named.
						t = namedTarget{what: tok, file: file, test: true, tests: []string{topName(rest)}}
						add(t)
						continue
					}
					add(t)
				}
			}
			for _, piece := range nameSplit.Split(tok, -1) {
				piece = strings.TrimSpace(piece)
				if testNameRe.MatchString(piece) && !strings.Contains(piece, ".") {
					add(namedTarget{what: piece, tests: []string{piece}, test: true})
				}
			}
		}
	}
	return out
}

// topName is a test case id's top-level test: "TestX/row" is TestX,
// "TestClass::test_x" test_x.
func topName(id string) string {
	if i := strings.LastIndex(id, "::"); i >= 0 {
		id = id[i+2:]
	}
	if i := strings.Index(id, "/"); i >= 0 {
		id = id[:i]
	}
	return id
}

// measuredAs reports whether a measured test id is the test named name,
// in file ("" for any file): its last part is the name, or the name's
// subtest or parametrized case.
func measuredAs(id, name, file string) bool {
	i := strings.LastIndex(id, name)
	if i <= 0 {
		return false
	}
	before, after := id[:i], id[i+len(name):]
	if !(strings.HasSuffix(before, ".") || strings.HasSuffix(before, "::") || strings.HasSuffix(before, "/") || strings.HasSuffix(before, " > ")) {
		return false
	}
	if after != "" && !strings.HasPrefix(after, "/") && !strings.HasPrefix(after, "[") {
		return false
	}
	if file == "" {
		return true
	}
	if strings.HasSuffix(file, ".go") {
		dir := path.Dir(file)
		pkg := strings.TrimSuffix(before, ".")
		return dir == "." || strings.HasSuffix(pkg, "/"+dir) || pkg == dir
	}
	stem := strings.TrimSuffix(file, path.Ext(file))
	return strings.Contains(before, file) || strings.Contains(before, strings.ReplaceAll(stem, "/", "."))
}

// ran lists the ids of tests that ran (not skipped) in r matching t.
func (t namedTarget) ran(r *collectors.Tests, skipped bool) (ran, skip []string) {
	file := ""
	if t.file != "" && len(t.tests) > 0 && t.what == t.file {
		file = t.file
	}
	for m := range r.All() {
		for _, n := range t.tests {
			if measuredAs(m.ID, n, file) {
				if m.Outcome == collectors.Skipped {
					skip = append(skip, m.ID)
				} else {
					ran = append(ran, m.ID)
				}
				break
			}
		}
	}
	sort.Strings(ran)
	sort.Strings(skip)
	return ran, skip
}

// namedFindings are the LP-021 findings of an iteration: a test the task
// or the completion command names that ran at the baseline and does not
// run at HEAD (left out, deselected, skipped) is high; a file they name
// that the loop completed without touching is low (the fix may rightly be
// elsewhere: a person looks).
func namedFindings(targets []namedTarget, base, head *collectors.Tests, touched map[string]bool, completed bool) []gate.Finding {
	var out []gate.Finding
	for _, t := range targets {
		if t.test && base != nil && head != nil && len(t.tests) > 0 {
			atBase, _ := t.ran(base, false)
			if len(atBase) == 0 {
				continue // it did not run at the baseline either
			}
			atHead, skipped := t.ran(head, true)
			if len(atHead) > 0 {
				continue
			}
			how := "is not run at all"
			if len(skipped) > 0 {
				how = "is skipped (" + clip(strings.Join(skipped, ", "), 160) + ")"
			}
			msg := fmt.Sprintf("the task or the completion command names %s, whose %s ran at the loop's baseline (%s); at HEAD it %s: the part of the task it checks is left out, not done",
				t.what, countOf(len(atBase), "test"), clip(strings.Join(atBase, ", "), 160), how)
			out = append(out, gate.Finding{
				ID:   gate.MakeID(gate.RuleNamedTestExcluded.Type, gate.RuleNamedTestExcluded.ID, t.file, t.what, ""),
				Type: gate.RuleNamedTestExcluded.Type, Severity: gate.SeverityHigh, Rule: gate.RuleNamedTestExcluded.ID,
				File: t.file, Test: t.what, Net: true, Evidence: gate.EvidenceMeasured, Message: msg + ".",
			})
			continue
		}
		if !t.test && t.file != "" && completed && !touched[t.file] {
			msg := fmt.Sprintf("the task or the completion command names %s, and the loop completed without changing it: check that the part of the task it names is done", t.file)
			out = append(out, gate.Finding{
				ID:   gate.MakeID(gate.RuleNamedFileUntouched.Type, gate.RuleNamedFileUntouched.ID, t.file, "", ""),
				Type: gate.RuleNamedFileUntouched.Type, Severity: gate.SeverityLow, Rule: gate.RuleNamedFileUntouched.ID,
				File: t.file, Net: true, Evidence: gate.EvidenceStatic, Message: msg + ".",
			})
		}
	}
	return out
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func countOf(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
