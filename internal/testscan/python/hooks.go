package python

import (
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// Marker kinds for the machinery that neuters a pytest run without
// touching a test: reported among a file's Bypasses.
const (
	// KindHookDeselect: pytest_collection_modifyitems drops collected
	// items, or pytest_ignore_collect ignores files.
	KindHookDeselect = "hook-deselect"
	// KindHookSkip: a hook that runs for each test (pytest_runtest_setup,
	// pytest_collection_modifyitems) or an autouse fixture skips the tests
	// it reaches, or marks them skipped or expected to fail.
	KindHookSkip = "hook-skip"
	// KindHookOutcome: a report hook rewrites outcomes, or
	// pytest_pyfunc_call claims to have run a test it never called.
	KindHookOutcome = "hook-outcome"
	// KindCollectIgnore: conftest's collect_ignore names test files.
	KindCollectIgnore = "collect-ignore"
	// KindTestDisabled: `__test__ = False` in a test module or class.
	KindTestDisabled = "test-disabled"
)

// hookMarkers finds the pytest hooks and settings that take tests out of a
// run or rewrite their results: in conftest.py and in pytest plugins (any
// file that defines pytest_* hooks), and `__test__ = False` in test files.
func (m *module) hookMarkers() []testscan.Marker {
	var out []testscan.Marker
	walk(m.root.body, func(s *stmt) bool {
		if name := assertPatched(s); name != "" {
			out = append(out, testscan.Marker{Line: s.line, Kind: KindHookOutcome, Text: name})
		}
		return true
	})
	for _, s := range m.root.body {
		switch {
		case s.isDef() && isFixture(s):
			out = append(out, fixtureSkips(s)...)
		case s.isDef():
			out = append(out, hookDef(s)...)
		case m.conftest && assignsName(s, "collect_ignore", "collect_ignore_glob") && mentionsTests(s.toks):
			out = append(out, testscan.Marker{Line: s.line, Kind: KindCollectIgnore, Text: compact(s.toks)})
		case m.isTest && assignsFalse(s, "__test__"):
			out = append(out, testscan.Marker{Line: s.line, Kind: KindTestDisabled, Text: "module " + compact(s.toks)})
		case m.isTest && s.isClass() && strings.HasPrefix(s.defName(), "Test"):
			for _, b := range s.body {
				if b.isDef() && isFixture(b) {
					out = append(out, fixtureSkips(b)...)
				}
				if assignsFalse(b, "__test__") {
					out = append(out, testscan.Marker{Line: b.line, Kind: KindTestDisabled, Text: "class " + s.defName() + ": " + compact(b.toks)})
				}
			}
		}
	}
	return out
}

func hookDef(def *stmt) []testscan.Marker {
	name := def.defName()
	toks := bodyTokens(def)
	mk := func(kind, what string) []testscan.Marker {
		return []testscan.Marker{{Line: def.line, Kind: kind, Text: name + " " + what}}
	}
	switch name {
	case "pytest_runtest_setup", "pytest_itemcollected", "pytest_collection_finish":
		if skipsReached(def.body, toks) {
			return mk(KindHookSkip, "skips the tests it runs for")
		}
	case "pytest_collection_modifyitems":
		if dropsItems(toks) {
			return mk(KindHookDeselect, "drops collected tests")
		}
		if skipsReached(def.body, toks) {
			return mk(KindHookSkip, "marks collected tests skipped")
		}
	case "pytest_ignore_collect":
		if returnsTruthy(def.body) {
			return mk(KindHookDeselect, "ignores test files")
		}
	case "pytest_runtest_makereport", "pytest_report_teststatus", "pytest_runtest_logreport", "pytest_runtest_logfinish":
		if rewritesOutcome(toks) {
			return mk(KindHookOutcome, "rewrites test outcomes")
		}
	case "pytest_pyfunc_call":
		if returnsTruthy(def.body) && !callsAttr(toks, "obj") {
			return mk(KindHookOutcome, "reports tests as run without calling them")
		}
	case "pytest_runtest_call", "pytest_runtest_protocol":
		if returnsTruthy(def.body) && !callsAttr(toks, "runtest") {
			return mk(KindHookOutcome, "replaces running the tests")
		}
		if skipsReached(def.body, toks) {
			return mk(KindHookSkip, "skips the tests it runs for")
		}
	}
	return nil
}

// bodyTokens are the tokens of a def's body, nested blocks included.
func bodyTokens(def *stmt) []token {
	var toks []token
	walk(def.body, func(s *stmt) bool {
		toks = append(toks, s.toks...)
		return true
	})
	return toks
}

// fixtureSkips reports a fixture that skips the tests it reaches: an
// autouse one that skips, or marks skipped or expected to fail, every test
// it runs for (its body skips anywhere), another that skips every test
// requesting it (fixtureSkip).
func fixtureSkips(def *stmt) []testscan.Marker {
	if !autouse(def) {
		return fixtureSkip(def)
	}
	if !skipsReached(def.body, bodyTokens(def)) {
		return nil
	}
	return []testscan.Marker{{Line: def.line, Kind: KindHookSkip, Text: "autouse fixture " + def.defName() + " skips the tests it runs for"}}
}

// fixtureSkip reports a fixture that skips every test requesting it: a
// skip (or xfail) in its own body, not under a condition and before it
// returns or yields. One that skips where a service or a module is missing
// (`if not os.environ.get("DB_URL"): pytest.skip(...)`) is left alone.
func fixtureSkip(def *stmt) []testscan.Marker {
	for _, s := range def.body {
		if s.header {
			continue // a nested block: conditional, or its own def
		}
		if s.tok(0) == "return" || s.tok(0) == "yield" {
			return nil
		}
		if sk := skipStatement(s); sk != nil && sk.Kind == testscan.SkipCall {
			return []testscan.Marker{{Line: def.line, Kind: KindHookSkip, Text: "fixture " + def.defName() + " skips every test that requests it"}}
		}
	}
	return nil
}

// skipsReached reports a body that skips the test it runs for
// (pytest.skip, pytest.xfail, raise SkipTest; not importorskip, which
// skips only where a module is missing) or adds a skip, skipif or xfail
// marker to it (item.add_marker, request.applymarker,
// request.node.add_marker).
func skipsReached(body []*stmt, toks []token) bool {
	if sk := nestedSkipCall(body); sk != nil && sk.Kind == testscan.SkipCall {
		return true
	}
	marks, adds := false, false
	for i, t := range toks {
		if t.kind != tkName {
			continue
		}
		switch t.text {
		case "skip", "skipif", "xfail":
			marks = marks || i > 1 && isOp(toks[i-1], ".") && toks[i-2].text == "mark"
		case "add_marker", "applymarker":
			adds = adds || i+1 < len(toks) && isOp(toks[i+1], "(")
		}
	}
	return marks && adds
}

// dropsItems: items.clear(), items.remove(x), items.pop(), del items[...],
// items[:] = [] or a filtering comprehension, or a call of
// pytest_deselected. Reordering (items.sort(), items[:] = sorted(items))
// keeps every test.
func dropsItems(toks []token) bool {
	for i, t := range toks {
		switch {
		case t.kind == tkName && t.text == "pytest_deselected":
			return true
		case t.kind == tkName && t.text == "items" && i+2 < len(toks) && isOp(toks[i+1], "."):
			switch toks[i+2].text {
			case "clear", "remove", "pop":
				return true
			}
		case t.kind == tkName && t.text == "del" && i+1 < len(toks) && toks[i+1].text == "items":
			return true
		case t.kind == tkName && t.text == "items" && i+1 < len(toks) && isOp(toks[i+1], "["):
			close := matchClose(toks, i+1)
			if close+1 < len(toks) && isOp(toks[close+1], "=") {
				rhs := toks[close+2:]
				if len(rhs) == 0 {
					return true
				}
				if rhs[0].kind == tkName && (rhs[0].text == "sorted" || rhs[0].text == "reversed") {
					continue
				}
				return true
			}
		}
	}
	return false
}

// rewritesOutcome: an assignment to .outcome or a force_result call.
func rewritesOutcome(toks []token) bool {
	for i, t := range toks {
		if t.kind != tkName {
			continue
		}
		if t.text == "outcome" && i > 0 && isOp(toks[i-1], ".") && i+1 < len(toks) && isOp(toks[i+1], "=") {
			return true
		}
		if (t.text == "force_result" || t.text == "force_exception") && i > 0 && isOp(toks[i-1], ".") {
			return true
		}
		// setattr(rep, "outcome", "passed")
		if t.text == "setattr" && i+1 < len(toks) && isOp(toks[i+1], "(") {
			close := matchClose(toks, i+1)
			for j := i + 2; j < close && j < len(toks); j++ {
				if toks[j].kind == tkString && strings.Contains(toks[j].text, "outcome") {
					return true
				}
			}
		}
	}
	return false
}

func callsAttr(toks []token, attr string) bool {
	for i, t := range toks {
		if t.kind == tkName && t.text == attr && i > 0 && isOp(toks[i-1], ".") && i+1 < len(toks) && isOp(toks[i+1], "(") {
			return true
		}
	}
	return false
}

// returnsTruthy reports a `return True` (or another non-None constant) at
// any depth of the body.
func returnsTruthy(body []*stmt) bool {
	found := false
	walk(body, func(s *stmt) bool {
		if s.tok(0) == "return" && len(s.toks) == 2 && (s.tok(1) == "True" || s.toks[1].kind == tkNumber && s.tok(1) != "0") {
			found = true
		}
		return !found
	})
	return found
}

func assignsName(s *stmt, names ...string) bool {
	if s.header || len(s.toks) < 2 || s.toks[0].kind != tkName {
		return false
	}
	for _, n := range names {
		if s.toks[0].text == n && (isOp(s.toks[1], "=") || isOp(s.toks[1], "+=") || s.tok(1) == "." && s.tok(2) == "append" || s.tok(1) == "." && s.tok(2) == "extend") {
			return true
		}
	}
	return false
}

func assignsFalse(s *stmt, name string) bool {
	return !s.header && len(s.toks) == 3 && s.toks[0].kind == tkName && s.toks[0].text == name && isOp(s.toks[1], "=") && s.tok(2) == "False"
}

// mentionsTests: a string naming a test file or directory, or a wildcard
// broad enough to match them ("*", "*.py", "**/*.py").
func mentionsTests(toks []token) bool {
	for _, t := range toks {
		if t.kind != tkString {
			continue
		}
		v := strings.ToLower(t.text)
		if strings.Contains(v, "test") {
			return true
		}
		bare := strings.Trim(v, "'\"rbuf")
		if strings.Trim(strings.ReplaceAll(bare, ".py", ""), "*/.") == "" && strings.Contains(bare, "*") {
			return true
		}
	}
	return false
}

// assertPatched reports an assignment that replaces an assertion method
// (`unittest.TestCase.assertEqual = lambda *a, **k: None`,
// `TestCase.assertTrue = noop`): its name, "" otherwise.
func assertPatched(s *stmt) string {
	if s.header || len(s.toks) < 4 {
		return ""
	}
	eq := -1
	for i, t := range s.toks {
		if isOp(t, "=") {
			eq = i
			break
		}
	}
	if eq < 3 || !isOp(s.toks[eq-2], ".") {
		return ""
	}
	last := s.toks[eq-1]
	if last.kind != tkName || !(strings.HasPrefix(last.text, "assert") || last.text == "fail") {
		return ""
	}
	return compact(s.toks)
}
