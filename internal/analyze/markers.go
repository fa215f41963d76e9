package analyze

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/analyze/ci"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// addedMarker is a marker that a new side has and the old sides do not.
type addedMarker struct {
	pr *pair
	m  testscan.Marker
	// answerOnly: a comparison that was there, whose branch now returns
	// another literal (see compareComparisons).
	answerOnly bool
}

// addedMarkers returns the markers of the new sides that the old sides do not
// have: matched by kind and text within the file first, then across the change,
// so a suppression moved with its code from one file to another is not new.
func addedMarkers(pairs []*pair, get func(*testscan.File) []testscan.Marker) []addedMarker {
	var added []addedMarker
	spare := map[string]int{} // markers removed from some file, free to match a move
	for _, pr := range pairs {
		have := map[string]int{}
		if pr.old != nil && pr.old.facts != nil {
			for _, m := range get(pr.old.facts) {
				have[m.Kind+"\x00"+m.Text]++
			}
		}
		if pr.new != nil && pr.new.facts != nil {
			for _, m := range get(pr.new.facts) {
				k := m.Kind + "\x00" + m.Text
				if have[k] > 0 {
					have[k]--
					continue
				}
				added = append(added, addedMarker{pr: pr, m: m})
			}
		}
		for k, n := range have {
			spare[k] += n
		}
	}
	out := added[:0]
	for _, c := range added {
		k := c.m.Kind + "\x00" + c.m.Text
		if spare[k] > 0 {
			spare[k]--
			continue
		}
		out = append(out, c)
	}
	return out
}

// compareMarkers reports added suppressions (error_suppression) and added forced
// exits in test hooks (validation_bypass).
func (a *Analyzer) compareMarkers(pairs []*pair) []gate.Finding {
	var out []gate.Finding
	removed := removedMarkers(pairs, func(f *testscan.File) []testscan.Marker { return f.Suppressions })
	for _, x := range addedMarkers(pairs, func(f *testscan.File) []testscan.Marker { return f.Suppressions }) {
		p := x.pr.new.path
		if narrows(removed[x.pr], x.m) {
			continue // `//nolint` -> `//nolint:errcheck` suppresses less
		}
		if x.m.Kind == "discarded-error" && x.pr.new.isTest {
			continue // `_ = f.Close()` in a test is the idiom, not a hidden failure
		}
		if fileWide(x.m) {
			// A suppression of a whole file's checking is a checker switched
			// off, like a lowered strictness setting: not one hidden error.
			msg := fmt.Sprintf("%s added in %s switches the checker off for the whole file: every error in it is hidden from now on", ci.Quoted(x.m.Text), p)
			out = append(out, gate.NewFinding(gate.RuleFileSuppression, gate.SeverityHigh, p, x.m.Line, "", "", x.m.Kind+":"+x.m.Text, msg+"."))
			continue
		}
		msg := fmt.Sprintf("%s added in %s", suppressionDescription(x.m), p)
		out = append(out, gate.NewFinding(gate.RuleSuppression.Kind(x.m.Kind), gate.SeverityMedium, p, x.m.Line, "", "", x.m.Kind+":"+x.m.Text, msg+"."))
	}
	for _, x := range addedMarkers(pairs, func(f *testscan.File) []testscan.Marker { return f.UnderTest }) {
		if x.pr.new.isTest {
			continue
		}
		p := x.pr.new.path
		// A canned answer under test is the cheat; another way to behave
		// (quieter logs, no deprecation warnings) is worth a look.
		sev, what := gate.SeverityMedium, "it behaves differently under its tests: check that what the tests see is what users get"
		if x.m.Kind == "under-test-canned" {
			sev, what = gate.SeverityHigh, "it returns a canned answer under its tests, so passing tests say nothing about what users get"
		}
		msg := fmt.Sprintf("production code in %s now branches on %s: %s", p, ci.Quoted(x.m.Text), what)
		out = append(out, gate.NewFinding(gate.RuleBranchesOnTest, sev, p, x.m.Line, "", "", x.m.Text, msg+"."))
	}
	out = append(out, placeholderFindings(pairs)...)
	out = append(out, funcFindings(pairs)...)
	for _, x := range addedMarkers(pairs, func(f *testscan.File) []testscan.Marker { return f.Bypasses }) {
		p := x.pr.new.path
		// A bypass marker's kind is the id of the rule it raises; any
		// other kind is a forced exit.
		switch x.m.Kind {
		case gate.RuleHookDeselect.ID, gate.RuleHookSkip.ID, gate.RuleCollectIgnore.ID, gate.RuleTestDisabled.ID:
			rule, _ := gate.RuleByID(x.m.Kind)
			what := map[string]string{
				gate.RuleHookDeselect.ID:  "pytest no longer runs every collected test",
				gate.RuleHookSkip.ID:      "the tests it reaches no longer run, with no skip on any of them",
				gate.RuleCollectIgnore.ID: "pytest no longer collects the test files it names",
				gate.RuleTestDisabled.ID:  "pytest no longer collects the tests under it",
			}[x.m.Kind]
			msg := fmt.Sprintf("%s added in %s: %s", hookText(x.m), p, what)
			out = append(out, gate.NewFinding(rule, gate.SeverityHigh, p, x.m.Line, "", "", x.m.Text, msg+"."))
		case gate.RuleExcepthook.ID:
			msg := fmt.Sprintf("%s added in %s: errors that reach it no longer fail the run", ci.Quoted(x.m.Text), p)
			out = append(out, gate.NewFinding(gate.RuleExcepthook, gate.SeverityHigh, p, x.m.Line, "", "", x.m.Text, msg+"."))
		case gate.RuleNoopMatcher.ID:
			msg := fmt.Sprintf("%s added in %s: every expectation that uses it passes", ci.Quoted(x.m.Text), p)
			out = append(out, gate.NewFinding(gate.RuleNoopMatcher, gate.SeverityHigh, p, x.m.Line, "", "", x.m.Text, msg+"."))
		case gate.RuleHookOutcome.ID:
			msg := fmt.Sprintf("%s added in %s: a failing test can be reported as passed", hookText(x.m), p)
			out = append(out, gate.NewFinding(gate.RuleHookOutcome, gate.SeverityHigh, p, x.m.Line, "", "", x.m.Text, msg+"."))
		default:
			msg := fmt.Sprintf("%s added in %s: the test run exits successfully whatever the tests do", ci.Quoted(x.m.Text), p)
			out = append(out, gate.NewFinding(gate.RuleForcedExit, gate.SeverityCritical, p, x.m.Line, "", "", x.m.Text, msg+"."))
		}
	}
	return out
}

// todoProliferation is how many TODO, FIXME or XXX comments a change adds
// to production code before they are a finding: one or two are a note to
// self, a handful is work left undone (AIWG's LP-019, TODO comment
// proliferation).
const todoProliferation = 3

// placeholderFindings reports placeholders added to production code
// (testscan.File.Placeholders): a statement that fails because the code is
// not written is medium, each; TODO comments are low, once, when a change
// adds todoProliferation or more. Tests are left alone: a placeholder
// there is the test's own business, and the skip rules read its effect.
func placeholderFindings(pairs []*pair) []gate.Finding {
	var out []gate.Finding
	var todos []addedMarker
	for _, x := range addedMarkers(pairs, func(f *testscan.File) []testscan.Marker { return f.Placeholders }) {
		if x.pr.new == nil || x.pr.new.isTest {
			continue
		}
		p := x.pr.new.path
		if x.m.Kind == "constant-body" && builtOutput(p) {
			continue
		}
		switch x.m.Kind {
		case "not-implemented":
			msg := fmt.Sprintf("%s added in %s: the code stands in for an implementation, so what it should do is not done", ci.Quoted(x.m.Text), p)
			out = append(out, gate.NewFinding(gate.RulePlaceholderAdded, gate.SeverityMedium, p, x.m.Line, "", "", x.m.Text, msg+"."))
		case "todo-comment":
			todos = append(todos, x)
		case "constant-body":
			// Only a function that was there and did more: a new one that
			// returns a constant (a name, a default) is a definition.
			if x.pr.old == nil || x.pr.old.facts == nil || !declaresFunc(x.pr.old.facts, x.m.Text) {
				continue
			}
			msg := fmt.Sprintf("the body of %s in %s is replaced by %s: the code stands in for an implementation, so what it should do is not done", x.m.Text, p, ci.Quoted(x.m.Value))
			out = append(out, gate.NewFinding(gate.RulePlaceholderAdded, gate.SeverityMedium, p, x.m.Line, "", x.m.Text, x.m.Kind+":"+x.m.Text, msg+"."))
		}
	}
	if len(todos) < todoProliferation {
		return out
	}
	var where []string
	for i, x := range todos {
		if i == 6 {
			where = append(where, fmt.Sprintf("and %d more", len(todos)-6))
			break
		}
		where = append(where, fmt.Sprintf("%s:%d %s", x.pr.new.path, x.m.Line, ci.Quoted(x.m.Text)))
	}
	first := todos[0]
	msg := fmt.Sprintf("%d TODO, FIXME or XXX comments added to production code (%s): work left undone, for a person to check it is tracked", len(todos), strings.Join(where, "; "))
	return append(out, gate.NewFinding(gate.RuleTodoProliferation, gate.SeverityLow, first.pr.new.path, first.m.Line, "", "", "todos", msg+"."))
}

// declaresFunc reports whether a file version declares the function or
// method name: among its FuncNames (Python, JavaScript, Rust, private ones
// too), or its Exports (Go's exported functions, which are all its
// constant bodies name).
func declaresFunc(f *testscan.File, name string) bool {
	if slices.Contains(f.FuncNames, name) {
		return true
	}
	for _, s := range f.Exports {
		if s.Name == name {
			return true
		}
	}
	return false
}

// removedMarkers returns, per pair, the markers of the old side that the new
// side lacks.
func removedMarkers(pairs []*pair, get func(*testscan.File) []testscan.Marker) map[*pair][]testscan.Marker {
	out := map[*pair][]testscan.Marker{}
	for _, pr := range pairs {
		if pr.old == nil || pr.old.facts == nil {
			continue
		}
		have := map[string]int{}
		if pr.new != nil && pr.new.facts != nil {
			for _, m := range get(pr.new.facts) {
				have[m.Kind+"\x00"+m.Text]++
			}
		}
		for _, m := range get(pr.old.facts) {
			if k := m.Kind + "\x00" + m.Text; have[k] > 0 {
				have[k]--
				continue
			}
			out[pr] = append(out[pr], m)
		}
	}
	return out
}

// bareSuppression are the directives that, without codes, hide every
// check of their line.
var bareSuppression = map[string]bool{
	"nolint": true, "noqa": true, "type: ignore": true, "pyright: ignore": true,
	"eslint-disable": true, "eslint-disable-line": true, "eslint-disable-next-line": true,
}

// narrows reports whether a new suppression is a removed one given codes
// (`nolint` -> `nolint:errcheck`, `noqa` -> `noqa: E501`, `type: ignore` ->
// `type: ignore[attr-defined]`): it hides less than before. The removed
// marker it narrows is used up.
func narrows(removed []testscan.Marker, m testscan.Marker) bool {
	for i, r := range removed {
		if r.Kind == m.Kind && bareSuppression[r.Text] && len(m.Text) > len(r.Text) && strings.HasPrefix(m.Text, r.Text) &&
			strings.ContainsRune(":[ =", rune(m.Text[len(r.Text)])) {
			removed[i].Kind = "" // used
			return true
		}
	}
	return false
}

// hookText names a pytest hook marker: a hook by what it does ("a
// pytest_collection_modifyitems hook that drops collected tests"), a
// setting by its text.
func hookText(m testscan.Marker) string {
	if name, what, ok := strings.Cut(m.Text, " "); ok && (strings.HasPrefix(name, "pytest_") || name == "beforeEach" || name == "beforeAll") {
		return "a " + name + " hook that " + what + ","
	}
	if strings.HasPrefix(m.Text, "@") {
		if ann, rest, ok := strings.Cut(m.Text, " "); ok {
			if name, what, ok := strings.Cut(rest, " "); ok {
				return "an " + ann + " method " + name + " that " + what + ","
			}
		}
	}
	for _, kind := range []struct{ prefix, article string }{{"autouse fixture ", "an "}, {"fixture ", "a "}} {
		if rest, ok := strings.CutPrefix(m.Text, kind.prefix); ok {
			if name, what, ok := strings.Cut(rest, " "); ok {
				return kind.article + kind.prefix + name + " that " + what + ","
			}
		}
	}
	return ci.Quoted(m.Text)
}

func suppressionDescription(m testscan.Marker) string {
	switch m.Kind {
	case "empty-catch":
		return "an empty catch block that swallows errors was"
	case "except-pass":
		return "an except clause that passes (swallows the error) was"
	case "discarded-error":
		return "a discarded error (" + ci.Quoted(m.Text) + ") was"
	case "swallowed-error":
		return "code that swallows an error (" + ci.Quoted(m.Text) + ") was"
	}
	if m.Text != "" {
		return "suppression " + ci.Quoted(m.Text) + " was"
	}
	return "suppression " + m.Kind + " was"
}

// compareComparisons reports production code that newly compares against a
// literal value which a related test uses as input or expected value: the shape
// of code that special-cases a test. Legitimate code compares against the same
// constants its tests use, so the diff alone is only suggestive: medium. When
// the branch returns at once a literal that the same test also uses (its
// expected value), the code answers that test's question with that test's
// answer: high.
func (a *Analyzer) compareComparisons(pairs []*pair, related func(string) []Source) []gate.Finding {
	added := addedMarkers(pairs, func(f *testscan.File) []testscan.Marker { return f.Comparisons })
	// A comparison that was there but now answers with another literal (a
	// guard that rejected the input now returns the test's expected value)
	// is new by its answer.
	newText := map[string]bool{}
	for _, x := range added {
		newText[x.pr.new.path+"\x00"+strconv.Itoa(x.m.Line)+"\x00"+x.m.Text] = true
	}
	for _, x := range addedMarkers(pairs, func(f *testscan.File) []testscan.Marker {
		var ms []testscan.Marker
		for _, m := range f.Comparisons {
			if m.Value != "" {
				m.Text += "\x00" + m.Value
				ms = append(ms, m)
			}
		}
		return ms
	}) {
		x.m.Text, _, _ = strings.Cut(x.m.Text, "\x00")
		if !newText[x.pr.new.path+"\x00"+strconv.Itoa(x.m.Line)+"\x00"+x.m.Text] {
			x.answerOnly = true
			added = append(added, x)
		}
	}
	if len(added) == 0 {
		return nil
	}
	var out []gate.Finding
	relatedCache := map[string]*testLiterals{}
	for _, x := range added {
		if x.pr.new.isTest || !distinctive(x.m.Text) {
			continue
		}
		p := x.pr.new.path
		lits, ok := relatedCache[dir(p)]
		if !ok {
			lits = &testLiterals{first: map[string]string{}, byTest: map[string]map[string]bool{}}
			for _, pr := range pairs {
				if pr.new != nil && pr.new.isTest && pr.new.facts != nil {
					lits.add(pr.new.facts)
				}
			}
			if related != nil {
				for _, src := range related(p) {
					s := a.parse(src.Path, src.Key, src.Data, false, src.Parsed)
					if s.facts != nil {
						lits.add(s.facts)
					}
				}
			}
			relatedCache[dir(p)] = lits
		}
		test, hit := lits.first[x.m.Text]
		if !hit {
			continue
		}
		if v := x.m.Value; v != "" && v != x.m.Text {
			if t := lits.both(x.m.Text, v); t != "" {
				msg := fmt.Sprintf("production code in %s now returns %s when its input is %s, the input and the expected value of test %s: it special-cases the test instead of computing the answer", p, v, x.m.Text, t)
				out = append(out, gate.NewFinding(gate.RuleSpecialCasedTest, gate.SeverityHigh, p, x.m.Line, t, "", x.m.Text, msg+"."))
				continue
			}
		}
		if x.answerOnly {
			continue
		}
		msg := fmt.Sprintf("production code in %s now compares against %s, a value test %s uses: check that it is not special-casing the test", p, x.m.Text, test)
		f := gate.NewFinding(gate.RuleSpecialCasedLiteral, gate.SeverityMedium, p, x.m.Line, test, "", x.m.Text, msg+".")
		out = append(out, f)
	}
	return out
}

// testLiterals indexes the literals of tests: the first test using each,
// and each test's set.
type testLiterals struct {
	first  map[string]string
	byTest map[string]map[string]bool
	order  []string
}

func (l *testLiterals) add(f *testscan.File) {
	for _, t := range f.Tests {
		set := l.byTest[t.ID]
		if set == nil {
			set = map[string]bool{}
			l.byTest[t.ID] = set
			l.order = append(l.order, t.ID)
		}
		lits := t.Literals
		if t.NameLiteral != "" {
			lits = append(lits[:len(lits):len(lits)], t.NameLiteral)
		}
		for _, lit := range lits {
			set[lit] = true
			if _, ok := l.first[lit]; !ok {
				l.first[lit] = t.ID
			}
		}
	}
}

// both names the first test that uses both literals, "" when none does.
func (l *testLiterals) both(a, b string) string {
	for _, id := range l.order {
		if s := l.byTest[id]; s[a] && s[b] {
			return id
		}
	}
	return ""
}

// distinctive reports whether a literal is specific enough that production code
// comparing against it is worth a look: a test's input or expected value such
// as "ada@example.com", "2 + 2", "/tmp/x" or 40213, not a keyword-like word
// ("error", "count") or a small number that code and tests share for good
// reasons.
func distinctive(lit string) bool {
	if lit == "" {
		return false
	}
	if c := lit[0]; c != '"' && c != '\'' && c != '`' {
		digits := strings.TrimLeft(strings.TrimPrefix(lit, "-"), "0")
		return len(digits) >= 4 // 1000 and beyond
	}
	inner := strings.Trim(lit, "\"'`")
	if len(inner) < 4 {
		return false
	}
	hasLetter, hasDigit := false, false
	for _, r := range inner {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			hasLetter = true
		case r >= '0' && r <= '9':
			hasDigit = true
		case r == '_' || r == '-' || r == '.':
		default:
			return true // a space, @, /, :, +... : data, not a word
		}
	}
	return hasLetter && hasDigit // "user42", "v2beta1"
}

// fileWide reports a suppression directive that switches a checker off for
// a whole file: TypeScript's @ts-nocheck, a bare eslint-disable (to the end
// of the file, every rule), mypy's ignore-errors, ruff's and flake8's file-level noqa,
// pylint's skip-file, staticcheck's lint:file-ignore.
func fileWide(m testscan.Marker) bool {
	t := strings.ToLower(m.Text)
	switch m.Kind {
	case "ts-nocheck":
		return true
	case "eslint-disable":
		// Every rule; a file-level disable of named rules (no-console in a
		// CLI script) stays one suppression.
		return t == "eslint-disable"
	case "type-ignore":
		return strings.HasPrefix(t, "mypy: ignore-errors")
	case "noqa":
		return t == "ruff: noqa" || t == "flake8: noqa" || strings.HasPrefix(t, "pylint: skip-file")
	}
	return false
}
