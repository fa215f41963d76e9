package python

import (
	"slices"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// assertions returns the checks in a test body, in source order, including
// those in nested helpers.
func assertions(body []*stmt) []testscan.Assertion {
	var out []testscan.Assertion
	unused := unusedDefs(body)
	armedWalk(body, nil, func(s *stmt, arms []testscan.Arm) {
		for _, d := range unused {
			if s.line >= d.line && s.line <= d.endLine {
				return // a nested def nothing calls: its checks never run
			}
		}
		from := len(out)
		if s.tok(0) == "assert" && !s.header {
			out = append(out, classifyAssert(s.toks[1:], s.line)...)
		} else {
			out = append(out, assertionCalls(s.toks)...)
		}
		for i := from; i < len(out); i++ {
			out[i].Arms = arms
		}
	})
	detachedChecks(body, out)
	return deadAfterReturn(body, out)
}

// deadAfterReturn drops the checks after the first return of body's top
// level that always runs (`return`, `if True: return`) when a check comes
// before it: they never run. (One before every check makes the test an
// early-return skip instead, see bodySkip.)
func deadAfterReturn(body []*stmt, out []testscan.Assertion) []testscan.Assertion {
	for i, s := range body {
		if i == len(body)-1 {
			break
		}
		line := 0
		switch {
		case !s.header && s.tok(0) == "return":
			line = s.line
		case s.header && s.keyword() == "if" && constTrue(s.toks[1:]) && len(s.body) > 0 && !s.body[0].header && s.body[0].tok(0) == "return":
			line = s.body[0].line
		default:
			continue
		}
		if len(out) == 0 || out[0].Line >= line {
			return out
		}
		return slices.DeleteFunc(out, func(a testscan.Assertion) bool { return a.Line > line })
	}
	return out
}

// comparisonOp is a top-level comparison operator inside an expression.
type comparisonOp struct {
	op         string // "==", "not in", "is not", ...
	start, end int    // token span of the operator
}

// topComparisons finds the comparison operators of expr outside brackets.
func topComparisons(expr []token) []comparisonOp {
	var ops []comparisonOp
	depth := 0
	for i := 0; i < len(expr); i++ {
		t := expr[i]
		switch {
		case isOpener(t):
			depth++
		case isCloser(t):
			if depth > 0 {
				depth--
			}
		case depth > 0:
		case t.kind == tkOp:
			switch t.text {
			case "==", "!=", "<", ">", "<=", ">=", "<>":
				op := t.text
				if op == "<>" {
					op = "!="
				}
				ops = append(ops, comparisonOp{op, i, i + 1})
			}
		case t.kind == tkName:
			switch t.text {
			case "in":
				ops = append(ops, comparisonOp{"in", i, i + 1})
			case "not":
				if i+1 < len(expr) && expr[i+1].text == "in" && i > 0 {
					ops = append(ops, comparisonOp{"not in", i, i + 2})
					i++
				}
			case "is":
				if i+1 < len(expr) && expr[i+1].text == "not" {
					ops = append(ops, comparisonOp{"is not", i, i + 2})
					i++
				} else {
					ops = append(ops, comparisonOp{"is", i, i + 1})
				}
			case "lambda", "for":
				// Comparisons past a lambda or comprehension belong to it.
				return ops
			}
		}
	}
	return ops
}

// splitBool splits expr at the top-level boolean operator word.
func splitBool(expr []token, word string) [][]token { return splitAt(expr, tkName, word) }

// classifyAssert reads an assert statement (without the keyword).
func classifyAssert(toks []token, line int) []testscan.Assertion {
	expr := stripParens(splitTop(toks, ",")[0])
	if len(expr) == 0 {
		return nil
	}
	a := testscan.Assertion{Line: line, Kind: "assert"}
	if isOp(expr[0], "(") && matchClose(expr, 0) == len(expr)-1 {
		// assert (x, "msg") is a non-empty tuple: always true.
		a.Strength = testscan.Trivial
		a.Subject = compact(expr)
		return []testscan.Assertion{a}
	}
	neg := false
	for len(expr) > 1 && expr[0].kind == tkName && expr[0].text == "not" {
		neg = !neg
		expr = stripParens(expr[1:])
	}
	if parts := splitBool(expr, "and"); len(parts) > 1 && !neg {
		var out []testscan.Assertion
		for _, p := range parts {
			out = append(out, classifyAssert(p, line)...)
		}
		return out
	}
	if parts := splitBool(expr, "or"); len(parts) > 1 {
		a.Strength, a.Negated, a.Subject = testscan.Weak, neg, compact(expr)
		return []testscan.Assertion{a}
	}
	ops := topComparisons(expr)
	switch {
	case len(ops) == 1:
		compare(&a, expr[:ops[0].start], ops[0].op, expr[ops[0].end:], neg)
	case len(ops) > 1:
		a.Kind = "assert " + ops[0].op
		a.Strength, a.Negated, a.Subject = testscan.Medium, neg, compact(expr)
	default:
		truth(&a, expr, neg)
	}
	return []testscan.Assertion{a}
}

// compare classifies `left op right`.
func compare(a *testscan.Assertion, left []token, op string, right []token, neg bool) {
	a.Kind = "assert " + op
	a.Negated = neg
	a.Subject, a.Expected = compact(left), compact(right)
	switch op {
	case "==", "!=":
		a.Strength = testscan.Strong
		if op == "!=" {
			a.Negated = !neg
		}
		if tol, exp, ok := approx(right); ok {
			a.Expected, a.Tolerance = exp, tol
		} else if tol, exp, ok := approx(left); ok {
			a.Subject, a.Expected, a.Tolerance = a.Expected, exp, tol
		} else {
			orient(a, left, right)
		}
	case "is", "is not":
		rv := evalLiteral(right, nil)
		switch {
		case rv.kind == vConst && rv.canon == "None":
			a.Kind = "assert " + op + " None"
			if op == "is" {
				a.Strength = testscan.Medium
			} else {
				a.Strength, a.Negated = testscan.Weak, !neg
			}
			a.Expected = ""
		case rv.kind == vConst:
			a.Strength = testscan.Medium
			a.Negated = neg != (op == "is not")
		default:
			a.Strength = testscan.Strong
			a.Negated = neg != (op == "is not")
		}
	case "not in":
		a.Strength, a.Negated = testscan.Medium, !neg
	default:
		a.Strength = testscan.Medium
	}
}

// orient makes the non-literal operand the subject (assert 3 == len(x)) and
// marks comparisons of a literal with itself trivial.
func orient(a *testscan.Assertion, left, right []token) {
	lv, rv := evalLiteral(left, nil), evalLiteral(right, nil)
	if lv.literal() && !rv.literal() {
		a.Subject, a.Expected = a.Expected, a.Subject
	}
	if a.Subject == a.Expected && a.Subject != "" && (lv.literal() || !strings.ContainsAny(a.Subject, "(")) {
		a.Strength = testscan.Trivial
	}
}

// approx recognizes pytest.approx(expected, rel=, abs=) and returns the
// tolerance ("default" when none is given) and the expected value.
func approx(toks []token) (tol, expected string, ok bool) {
	c, isCall := asCall(stripParens(toks))
	if !isCall || (c.name != "pytest.approx" && c.name != "approx") {
		return "", "", false
	}
	return tolerance(c.args, "rel", "abs"), compact(argOr(c.args, 0, "expected")), true
}

// tolerance renders the named tolerance arguments present, "default" if none.
func tolerance(args []callArg, names ...string) string {
	var parts []string
	for _, n := range names {
		if v := keyword(args, n); v != nil {
			parts = append(parts, n+"="+compact(v))
		}
	}
	if len(parts) == 0 {
		return "default"
	}
	return strings.Join(parts, " ")
}

// truth classifies an assert without a comparison: a literal, a predicate call,
// or plain truthiness.
func truth(a *testscan.Assertion, expr []token, neg bool) {
	a.Negated = neg
	a.Subject = compact(expr)
	if v := evalLiteral(expr, nil); v.literal() || v.kind == vOther {
		if v.falsy == neg {
			a.Strength = testscan.Trivial
		} else {
			a.Kind, a.Strength = "assert False", testscan.Strong
		}
		return
	}
	c, ok := asCall(expr)
	if !ok {
		a.Strength = testscan.Weak
		return
	}
	last := c.name[strings.LastIndexByte(c.name, '.')+1:]
	first, second := positional(c.args, 0), positional(c.args, 1)
	switch {
	case c.name == "isinstance" || c.name == "issubclass" || c.name == "hasattr":
		a.Kind, a.Strength = "assert "+c.name, testscan.Medium
		a.Subject, a.Expected = compact(first), compact(second)
	case last == "isclose" || last == "allclose":
		a.Kind, a.Strength = "assert "+last, testscan.Strong
		a.Subject, a.Expected = compact(first), compact(second)
		a.Tolerance = tolerance(c.args, "rel_tol", "abs_tol", "rtol", "atol")
	case last == "array_equal" || last == "array_equiv" || last == "equals":
		a.Kind, a.Strength = "assert "+last, testscan.Strong
		if last == "equals" {
			a.Subject, a.Expected = strings.TrimSuffix(c.name, ".equals"), compact(first)
		} else {
			a.Subject, a.Expected = compact(first), compact(second)
		}
	case c.name == "any" || c.name == "all" || last == "startswith" || last == "endswith" ||
		c.name == "re.match" || c.name == "re.search" || c.name == "re.fullmatch" || last == "issubset" || last == "issuperset":
		a.Kind, a.Strength = "assert "+last, testscan.Medium
	case c.name == "callable" || c.name == "bool" || c.name == "len":
		a.Strength = testscan.Weak
	default:
		a.Strength = testscan.Weak
	}
}

// unittestAliases maps deprecated unittest names to the current ones.
var unittestAliases = map[string]string{
	"assertEquals": "assertEqual", "failUnlessEqual": "assertEqual",
	"assertNotEquals": "assertNotEqual", "failIfEqual": "assertNotEqual",
	"assert_": "assertTrue", "failUnless": "assertTrue", "failIf": "assertFalse",
	"assertAlmostEquals": "assertAlmostEqual", "failUnlessAlmostEqual": "assertAlmostEqual",
	"assertNotAlmostEquals": "assertNotAlmostEqual", "failIfAlmostEqual": "assertNotAlmostEqual",
	"assertRegexpMatches": "assertRegex", "assertNotRegexpMatches": "assertNotRegex",
	"assertRaisesRegexp": "assertRaisesRegex", "assertItemsEqual": "assertCountEqual",
	"failUnlessRaises": "assertRaises",
}

// unittestRule says how a unittest assertion method checks.
type unittestRule struct {
	strength testscan.Strength
	negated  bool
	equality bool // compares first with second
}

var unittestRules = map[string]unittestRule{
	"assertEqual": {testscan.Strong, false, true}, "assertDictEqual": {testscan.Strong, false, true},
	"assertListEqual": {testscan.Strong, false, true}, "assertTupleEqual": {testscan.Strong, false, true},
	"assertSetEqual": {testscan.Strong, false, true}, "assertCountEqual": {testscan.Strong, false, true},
	"assertSequenceEqual": {testscan.Strong, false, true}, "assertMultiLineEqual": {testscan.Strong, false, true},
	"assertNotEqual":    {testscan.Strong, true, true},
	"assertAlmostEqual": {testscan.Strong, false, true}, "assertNotAlmostEqual": {testscan.Strong, true, true},
	"assertIs": {testscan.Strong, false, false}, "assertIsNot": {testscan.Strong, true, false},
	"assertTrue": {testscan.Medium, false, false}, "assertFalse": {testscan.Medium, true, false},
	"assertIsNone": {testscan.Medium, false, false}, "assertIsNotNone": {testscan.Weak, true, false},
	"assertIn": {testscan.Medium, false, false}, "assertNotIn": {testscan.Medium, true, false},
	"assertIsInstance": {testscan.Medium, false, false}, "assertNotIsInstance": {testscan.Medium, true, false},
	"assertRegex": {testscan.Medium, false, false}, "assertNotRegex": {testscan.Medium, true, false},
	"assertGreater": {testscan.Medium, false, false}, "assertGreaterEqual": {testscan.Medium, false, false},
	"assertLess": {testscan.Medium, false, false}, "assertLessEqual": {testscan.Medium, false, false},
	"assertRaises": {testscan.Medium, false, false}, "assertWarns": {testscan.Medium, false, false},
	"assertRaisesRegex": {testscan.Strong, false, false}, "assertWarnsRegex": {testscan.Strong, false, false},
	"assertLogs": {testscan.Medium, false, false}, "assertNoLogs": {testscan.Medium, true, false},
	"assertDictContainsSubset": {testscan.Medium, false, false},
}

// mockRules are the assertion methods of unittest.mock objects.
var mockRules = map[string]unittestRule{
	"assert_called_once_with": {testscan.Strong, false, false}, "assert_called_with": {testscan.Strong, false, false},
	"assert_any_call": {testscan.Strong, false, false}, "assert_has_calls": {testscan.Strong, false, false},
	"assert_awaited_once_with": {testscan.Strong, false, false}, "assert_awaited_with": {testscan.Strong, false, false},
	"assert_any_await": {testscan.Strong, false, false}, "assert_has_awaits": {testscan.Strong, false, false},
	"assert_called": {testscan.Weak, false, false}, "assert_called_once": {testscan.Weak, false, false},
	"assert_awaited": {testscan.Weak, false, false}, "assert_awaited_once": {testscan.Weak, false, false},
	"assert_not_called": {testscan.Medium, true, false}, "assert_not_awaited": {testscan.Medium, true, false},
}

// unittestMethod reports whether name is a unittest-style assertion method
// (assertX, or one of the deprecated fail* spellings), returning its canonical
// name.
func unittestMethod(name string) (string, bool) {
	if canon, ok := unittestAliases[name]; ok {
		return canon, true
	}
	if _, ok := unittestRules[name]; ok {
		return name, true
	}
	if len(name) > 6 && strings.HasPrefix(name, "assert") && name[6] >= 'A' && name[6] <= 'Z' {
		return name, true
	}
	return "", false
}

func isUnittestMethod(name string) bool {
	_, ok := unittestMethod(name)
	return ok
}

// assertionCalls finds assertion calls in a statement's tokens: unittest
// self.assertX(...), mock .assert_called*(...), pytest.raises/warns, and
// assert_* helper functions (numpy.testing, pandas.testing, custom helpers).
func assertionCalls(toks []token) []testscan.Assertion {
	var out []testscan.Assertion
	for i := 0; i+1 < len(toks); i++ {
		t := toks[i]
		if t.kind != tkName || !isOp(toks[i+1], "(") {
			continue
		}
		kind := assertCallKind(toks, i)
		if kind == acNone {
			continue
		}
		name := t.text
		var a testscan.Assertion
		close := matchClose(toks, i+1)
		args := parseArgs(toks[i+2 : max(close, i+2)])
		if close == len(toks)-1 && !isOp(toks[close], ")") {
			args = parseArgs(toks[i+2:])
		}
		arg := func(n int, kw string) string { return compact(argOr(args, n, kw)) }
		switch kind {
		case acMock:
			r := mockRules[name]
			recv := toks[receiverStart(toks, i-1) : i-1]
			a = testscan.Assertion{Kind: name, Strength: r.strength, Negated: r.negated, Subject: compact(recv)}
			if r.strength == testscan.Strong {
				a.Expected = compact(toks[i+2 : max(close, i+2)])
			}
		case acPytest:
			a = testscan.Assertion{Kind: "pytest." + name, Strength: testscan.Medium, Expected: arg(0, "expected_exception")}
			if name == "warns" {
				a.Expected = arg(0, "expected_warning")
				if a.Expected == "None" {
					// pytest.warns(None) only records warnings: it checks
					// nothing (pytest 7 deprecated it, pytest 8 rejects it).
					a.Strength = testscan.Trivial
				}
			}
			if m := keyword(args, "match"); m != nil {
				a.Strength = testscan.Strong
				a.Expected += " match=" + compact(m)
			}
			if f := positional(args, 1); f != nil {
				a.Subject = compact(f)
			}
		case acUnittest:
			canon, _ := unittestMethod(name)
			a = unittestAssertion(canon, args)
		case acHelper:
			a = helperAssertion(name, args)
		}
		a.Line = int(t.line)
		out = append(out, a)
	}
	return out
}

// assertCallType says which kind of assertion a call is.
type assertCallType uint8

const (
	acNone     assertCallType = iota
	acMock                    // mock.assert_called_once_with(...)
	acPytest                  // pytest.raises / warns / deprecated_call
	acUnittest                // self.assertEqual(...)
	acHelper                  // assert_frame_equal(...), assert_valid(...)
)

// assertCallKind classifies the call whose name is toks[i] (followed by its
// '('): the kind of assertion assertionCalls reads it as, acNone for a call
// that is not one.
func assertCallKind(toks []token, i int) assertCallType {
	dot := i > 0 && isOp(toks[i-1], ".")
	name := toks[i].text
	switch {
	case dot && mockRules[name] != (unittestRule{}):
		return acMock
	case dot && i >= 2 && toks[i-2].text == "pytest" && (name == "raises" || name == "warns" || name == "deprecated_call"),
		!dot && (name == "raises" || name == "warns"):
		return acPytest
	case dot && isUnittestMethod(name):
		return acUnittest
	case strings.HasPrefix(name, "assert_") && len(name) > len("assert_"):
		return acHelper
	}
	return acNone
}

// unittestAssertion classifies a TestCase assertion method call.
func unittestAssertion(name string, args []callArg) testscan.Assertion {
	r, known := unittestRules[name]
	if !known {
		r = unittestRule{strength: testscan.Medium}
		switch {
		case strings.Contains(name, "NotEqual"):
			r = unittestRule{testscan.Strong, true, true}
		case strings.Contains(name, "Equal"):
			r = unittestRule{testscan.Strong, false, true}
		case strings.HasPrefix(name, "assertNot"):
			r.negated = true
		}
	}
	a := testscan.Assertion{Kind: name, Strength: r.strength, Negated: r.negated}
	first, second := argOr(args, 0, "first"), argOr(args, 1, "second")
	switch name {
	case "assertTrue", "assertFalse", "assertIsNone", "assertIsNotNone":
		first = argOr(args, 0, "expr")
		if name == "assertIsNone" || name == "assertIsNotNone" {
			first = argOr(args, 0, "obj")
		}
		a.Subject = compact(first)
		if v := evalLiteral(first, nil); (v.literal() || v.kind == vOther) && v.falsy == (name == "assertFalse") && (name == "assertTrue" || name == "assertFalse") {
			a.Strength = testscan.Trivial
		}
		return a
	case "assertRaises", "assertWarns", "assertRaisesRegex", "assertWarnsRegex":
		a.Expected = compact(argOr(args, 0, "expected_exception"))
		if name == "assertWarns" || name == "assertWarnsRegex" {
			a.Expected = compact(argOr(args, 0, "expected_warning"))
		}
		rest := 1
		if strings.HasSuffix(name, "Regex") {
			a.Expected += " match=" + compact(argOr(args, 1, "expected_regex"))
			rest = 2
		}
		a.Subject = compact(positional(args, rest))
		return a
	case "assertLogs", "assertNoLogs":
		a.Subject = compact(argOr(args, 0, "logger"))
		a.Expected = compact(argOr(args, 1, "level"))
		return a
	}
	a.Subject, a.Expected = compact(first), compact(second)
	if strings.Contains(name, "AlmostEqual") {
		tol := tolerance(args, "places", "delta")
		if p := positional(args, 2); p != nil && tol == "default" {
			tol = "places=" + compact(p)
		}
		a.Tolerance = tol
	}
	if r.equality {
		orient(&a, first, second)
	}
	return a
}

// helperAssertion classifies an assert_* helper function call: numpy.testing,
// pandas.testing and project helpers.
func helperAssertion(name string, args []callArg) testscan.Assertion {
	a := testscan.Assertion{Kind: name, Strength: testscan.Medium}
	first, second := positional(args, 0), positional(args, 1)
	a.Subject = compact(first)
	switch {
	case strings.Contains(name, "not_equal"):
		a.Strength, a.Negated, a.Expected = testscan.Strong, true, compact(second)
	case strings.Contains(name, "equal") || strings.Contains(name, "allclose"):
		a.Strength, a.Expected = testscan.Strong, compact(second)
		if strings.Contains(name, "almost") || strings.Contains(name, "allclose") {
			a.Tolerance = tolerance(args, "rtol", "atol", "decimal")
		} else if t := tolerance(args, "rtol", "atol", "decimal"); t != "default" {
			a.Tolerance = t
		}
		if second != nil {
			orient(&a, first, second)
		}
	}
	return a
}

// unusedDefs returns the nested defs of a body whose name nothing in the
// body uses (calls, passes on, decorates with) but their own header, and
// those whose call runs nothing (an async def or a generator, see inert)
// that the body only calls, as a statement of its own: `check()` makes a
// coroutine nobody awaits or a generator nobody iterates.
func unusedDefs(body []*stmt) []*stmt {
	var defs []*stmt
	var all []*stmt
	var walk func(ss []*stmt)
	walk = func(ss []*stmt) {
		for _, s := range ss {
			all = append(all, s)
			all = append(all, s.decos...)
			if s.isDef() && s.defName() != "" {
				defs = append(defs, s)
			}
			walk(s.body)
		}
	}
	walk(body)
	var out []*stmt
	for _, d := range defs {
		name, used := d.defName(), false
		lazy := inert(d)
		for _, s := range all {
			for i, t := range s.toks {
				if t.kind == tkName && t.text == name && !(s == d && (i == 1 || i == 2 && s.tok(0) == "async")) &&
					!(lazy && i == 0 && bareCall(s)) {
					used = true
					break
				}
			}
			if used {
				break
			}
		}
		if !used {
			out = append(out, d)
		}
	}
	return out
}

// inert reports whether calling def d runs none of its body: an async def
// (the call makes a coroutine) or a generator (a yield in its own body).
func inert(d *stmt) bool {
	if d.tok(0) == "async" {
		return true
	}
	found := false
	var walk func(ss []*stmt)
	walk = func(ss []*stmt) {
		for _, s := range ss {
			if found || s.isDef() || s.isClass() {
				continue
			}
			for _, t := range s.toks {
				if t.kind == tkName && t.text == "yield" {
					found = true
					return
				}
			}
			walk(s.body)
		}
	}
	walk(d.body)
	return found
}

// bareCall reports a statement that is one call and nothing else:
// `check(x)`, its value dropped.
func bareCall(s *stmt) bool {
	return !s.header && len(s.toks) >= 3 && s.toks[0].kind == tkName && s.toks[1].text == "(" && matchClose(s.toks, 1) == len(s.toks)-1
}
