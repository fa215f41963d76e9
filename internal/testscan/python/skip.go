package python

import (
	"strconv"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// reasonText is a skip reason as given: a string literal's value, or the
// normalized source of a non-literal reason.
func reasonText(toks []token) string {
	if len(toks) == 0 {
		return ""
	}
	if v := evalLiteral(toks, nil); v.kind == vStr {
		return stringValue(toks)
	}
	return compact(toks)
}

// stringValue concatenates the values of adjacent string literals.
func stringValue(toks []token) string {
	var b strings.Builder
	for _, t := range stripParens(toks) {
		if t.kind == tkString {
			b.WriteString(parseStringToken(t.text).value())
		}
	}
	return b.String()
}

// markSkip reads a decorator or mark expression (without its '@'): the pytest
// marks skip, skipif and xfail, and unittest's skip, skipIf, skipUnless and
// expectedFailure (with or without their module prefix).
func markSkip(expr []token) *testscan.Skip {
	if len(expr) == 0 {
		return nil
	}
	line := int(expr[0].line)
	name := dotted(expr)
	var args []callArg
	if name == "" {
		c, ok := asCall(expr)
		if !ok {
			return nil
		}
		name, args = c.name, c.args
	}
	name = strings.TrimPrefix(name, "pytest.")
	name = strings.TrimPrefix(name, "unittest.")
	last := name[strings.LastIndexByte(name, '.')+1:]
	switch name {
	case "mark.skip":
		return &testscan.Skip{Kind: testscan.SkipMarked, Reason: reasonText(argOr(args, 0, "reason")), Line: line}
	case "mark.skipif":
		return &testscan.Skip{Kind: testscan.SkipConditional, Reason: reasonText(keyword(args, "reason")), Line: line, EnvGuard: readsEnv(positional(args, 0)), Platform: platformCond(positional(args, 0)), Runtime: versionCond(positional(args, 0), false)}
	case "mark.xfail":
		return &testscan.Skip{Kind: testscan.SkipXFail, Reason: reasonText(keyword(args, "reason")), Line: line}
	case "skip":
		return &testscan.Skip{Kind: testscan.SkipMarked, Reason: reasonText(argOr(args, 0, "reason")), Line: line}
	case "skipIf", "skipUnless":
		return &testscan.Skip{Kind: testscan.SkipConditional, Reason: reasonText(argOr(args, 1, "reason")), Line: line, EnvGuard: readsEnv(positional(args, 0)),
			Runtime: versionCond(positional(args, 0), name == "skipUnless")}
	case "expectedFailure":
		return &testscan.Skip{Kind: testscan.SkipXFail, Line: line}
	}
	if strings.HasPrefix(last, "skipIf") || strings.HasPrefix(last, "skipUnless") {
		// Django's skipIfDBFeature / skipUnlessDBFeature and the like.
		return &testscan.Skip{Kind: testscan.SkipConditional, Reason: reasonText(positional(args, 0)), Line: line}
	}
	return nil
}

// marksSkip reads a mark or a list/tuple of marks (pytestmark, marks=).
func marksSkip(expr []token) *testscan.Skip {
	expr = stripParens(expr)
	if len(expr) >= 2 && (isOp(expr[0], "[") || isOp(expr[0], "(")) && isCloser(expr[len(expr)-1]) && matchClose(expr, 0) == len(expr)-1 {
		for _, part := range splitTop(expr[1:len(expr)-1], ",") {
			if s := markSkip(part); s != nil {
				return s
			}
		}
		return nil
	}
	return markSkip(expr)
}

// decoratorSkip returns the first skip among a definition's decorators.
func decoratorSkip(decos []*stmt) *testscan.Skip {
	for _, d := range decos {
		if len(d.toks) > 1 {
			if s := markSkip(d.toks[1:]); s != nil {
				return s
			}
		}
	}
	return nil
}

// blockSkip finds what skips every test of a module or class body: a
// `pytestmark = ...` holding a skip mark, and at module level
// pytest.importorskip, pytest.skip(allow_module_level=True) and raising
// unittest.SkipTest.
func (m *module) blockSkip(body []*stmt, moduleLevel bool) *testscan.Skip {
	for _, s := range body {
		if s.tok(0) == "pytestmark" && s.tok(1) == "=" {
			if sk := marksSkip(s.toks[2:]); sk != nil {
				return sk
			}
		}
		if !moduleLevel {
			continue
		}
		if sk := skipStatement(s); sk != nil {
			return sk
		}
		if s.header && (s.tok(0) == "if" || s.tok(0) == "elif" || s.tok(0) == "else" || s.tok(0) == "try" || s.tok(0) == "except") && !isMainGuard(s) {
			if sk := nestedSkipCall(s.body); sk != nil {
				sk.Kind = testscan.SkipConditional
				return sk
			}
		}
	}
	return nil
}

// skipStatement recognizes a statement that skips when run: pytest.skip(),
// pytest.xfail(), self.skipTest(), raise unittest.SkipTest(...) (SkipCall), and
// pytest.importorskip(...) anywhere in the statement (SkipConditional).
func skipStatement(s *stmt) *testscan.Skip {
	if s.header || len(s.toks) == 0 {
		return nil
	}
	line := s.line
	for i := 0; i+2 < len(s.toks); i++ {
		if s.toks[i].text == "importorskip" && isOp(s.toks[i+1], "(") {
			c := matchClose(s.toks, i+1)
			args := parseArgs(s.toks[i+2 : max(c, i+2)])
			return &testscan.Skip{Kind: testscan.SkipConditional, Reason: "importorskip " + reasonText(argOr(args, 0, "modname")), Line: line}
		}
	}
	toks := s.toks
	if toks[0].text == "raise" && len(toks) > 1 {
		expr := toks[1:]
		name := dotted(expr)
		var args []callArg
		if name == "" {
			if c, ok := asCall(expr); ok {
				name, args = c.name, c.args
			}
		}
		if name == "SkipTest" || strings.HasSuffix(name, ".SkipTest") || name == "pytest.skip.Exception" {
			return &testscan.Skip{Kind: testscan.SkipCall, Reason: reasonText(positional(args, 0)), Line: line}
		}
		return nil
	}
	c, ok := asCall(toks)
	if !ok {
		return nil
	}
	switch c.name {
	case "pytest.skip", "pytest.xfail", "skip", "xfail":
		return &testscan.Skip{Kind: testscan.SkipCall, Reason: reasonText(argOr(c.args, 0, "reason")), Line: line}
	}
	if strings.HasSuffix(c.name, ".skipTest") {
		return &testscan.Skip{Kind: testscan.SkipCall, Reason: reasonText(argOr(c.args, 0, "reason")), Line: line}
	}
	return nil
}

// nestedSkipCall finds a skip statement anywhere in a block, not descending into
// nested definitions.
func nestedSkipCall(body []*stmt) *testscan.Skip {
	var found *testscan.Skip
	walk(body, func(s *stmt) bool {
		if found != nil || s.isDef() || s.isClass() {
			return false
		}
		if sk := skipStatement(s); sk != nil {
			found = sk
			return false
		}
		return true
	})
	return found
}

// isMainGuard reports whether s is `if __name__ == "__main__":`.
func isMainGuard(s *stmt) bool {
	if s.tok(0) != "if" || len(s.toks) != 4 || s.tok(2) != "==" {
		return false
	}
	l, r := s.toks[1], s.toks[3]
	if l.kind == tkString {
		l, r = r, l
	}
	return l.text == "__name__" && r.kind == tkString && parseStringToken(r.text).value() == "__main__"
}

// bodySkip finds what keeps a test body from running: a skip call at its top
// level (or inside with/try blocks) is a SkipCall, one inside a conditional
// block a SkipConditional, as is `if ...: return` before the first assertion; a
// bare `return` with statements after it, before the first assertion, is a
// SkipEarlyReturn. firstAssert is the line of the first assertion (0: none).
func bodySkip(body []*stmt, firstAssert int) *testscan.Skip {
	before := func(line int) bool { return firstAssert == 0 || line < firstAssert }
	var visit func(body []*stmt, top bool) *testscan.Skip
	visit = func(body []*stmt, top bool) *testscan.Skip {
		results := map[string]bool{} // locals bound to what the code under test returned
		checked := assertedNames(body)
		for i, s := range body {
			if s.isDef() || s.isClass() {
				continue
			}
			if name, rhs, ok := simpleAssign(s); ok {
				results[name] = checked[name] && callsOwnCode(rhs, nil, nil)
			}
			if sk := skipStatement(s); sk != nil {
				return sk
			}
			if !s.header {
				if top && s.tok(0) == "return" && i < len(body)-1 && before(s.line) {
					return &testscan.Skip{Kind: testscan.SkipEarlyReturn, Line: s.line}
				}
				continue
			}
			switch s.keyword() {
			case "with", "try", "finally":
				if sk := visit(s.body, top); sk != nil {
					return sk
				}
				continue
			case "if", "elif", "else":
				if before(s.line) {
					for _, c := range s.body {
						if c.tok(0) == "return" && !c.header {
							reason := ""
							if len(s.toks) > 1 {
								reason = compact(s.toks[1:])
							}
							if s.keyword() == "if" && constTrue(s.toks[1:]) {
								return &testscan.Skip{Kind: testscan.SkipEarlyReturn, Reason: reason, Line: c.line}
							}
							return &testscan.Skip{Kind: testscan.SkipConditional, Reason: reason, Line: c.line, EnvGuard: readsEnv(s.toks)}
						}
					}
				}
			}
			if sk := nestedSkipCall(s.body); sk != nil {
				if s.keyword() == "if" && constTrue(s.toks[1:]) {
					return sk // `if True: pytest.skip()` skips every time
				}
				sk.Kind = testscan.SkipConditional
				sk.EnvGuard = s.keyword() != "else" && readsEnv(s.toks)
				if s.keyword() == "if" && len(s.toks) > 1 {
					sk.Platform = platformCond(s.toks[1:])
					sk.Runtime = versionCond(s.toks[1:], false)
					sk.OnResult = callsOwnCode(s.toks[1:], results, checked)
				}
				return sk
			}
		}
		return nil
	}
	return visit(body, true)
}

// simpleAssign reads `name = expression`, one plain name bound.
func simpleAssign(s *stmt) (string, []token, bool) {
	if s.header || len(s.toks) < 3 || s.toks[0].kind != tkName || !isOp(s.toks[1], "=") {
		return "", nil, false
	}
	return s.toks[0].text, s.toks[2:], true
}

// assertedNames are the names the assert statements of a body read: what
// the test checks.
func assertedNames(body []*stmt) map[string]bool {
	out := map[string]bool{}
	walk(body, func(s *stmt) bool {
		if s.tok(0) == "assert" {
			for _, t := range s.toks[1:] {
				if t.kind == tkName {
					out[t.text] = true
				}
			}
		}
		return true
	})
	return out
}

// callsOwnCode reports tokens that call the code the test checks
// (checked: the names its asserts read), or read a local bound to what it
// returned (results): a call of a bare name that is no builtin, or of an
// attribute of a module that is not the standard library's or the test
// runner's (`calc.add(2, 2)`, not `shutil.which`), the function's name
// among what the asserts read (any, for a nil checked). A helper the
// asserts do not read (has_network()) asks about the environment.
func callsOwnCode(toks []token, results, checked map[string]bool) bool {
	for i, t := range toks {
		if t.kind != tkName {
			continue
		}
		if results[t.text] && (i == 0 || !isOp(toks[i-1], ".")) {
			return true
		}
		if i+1 >= len(toks) || !isOp(toks[i+1], "(") {
			continue
		}
		if i > 0 && isOp(toks[i-1], ".") {
			// An attribute call: whose module?
			j := i - 2
			for j >= 2 && toks[j].kind == tkName && isOp(toks[j-1], ".") {
				j -= 2
			}
			if j >= 0 && toks[j].kind == tkName && !libraryModule[toks[j].text] && !(j > 0 && isOp(toks[j-1], ".")) {
				if j == i-2 && (toks[j].text == "self" || toks[j].text == "cls") {
					continue
				}
				if checked == nil || checked[t.text] {
					return true
				}
			}
			continue
		}
		if !pyBuiltin[t.text] && (checked == nil || checked[t.text]) {
			return true
		}
	}
	return false
}

// libraryModule are modules a condition calls to ask about the
// environment, not the code under test.
var libraryModule = map[string]bool{
	"os": true, "sys": true, "shutil": true, "platform": true, "importlib": true, "socket": true,
	"subprocess": true, "pathlib": true, "sysconfig": true, "locale": true, "time": true, "datetime": true,
	"tempfile": true, "pytest": true, "unittest": true, "re": true, "json": true, "ssl": true, "Path": true,
	"util": true, "find_spec": true, "environ": true, "path": true,
}

// pyBuiltin are Python's builtins a condition calls, and the standard
// library's probes imported by their bare names (which, find_spec).
var pyBuiltin = map[string]bool{
	"len": true, "isinstance": true, "hasattr": true, "getattr": true, "bool": true, "int": true, "str": true,
	"callable": true, "any": true, "all": true, "sorted": true, "list": true, "dict": true, "set": true,
	"tuple": true, "type": true, "max": true, "min": true, "sum": true, "open": true, "repr": true,
	"id": true, "hash": true, "iter": true, "next": true, "print": true, "float": true, "issubclass": true,
	"find_spec": true, "which": true,
}

// platformCond reads a condition on the operating system alone (a skip's
// condition, its trailing `:` allowed): `sys.platform == "linux"`,
// `sys.platform.startswith("win")`, `platform.system() == "Darwin"`,
// `os.name == "nt"`, and `!=` or `not` before them. It returns the system
// the condition holds on, or "!" and the one it does not hold on; "" for
// any other condition.
func platformCond(toks []token) string {
	toks, neg := condition(toks)
	text := ""
	for _, t := range toks {
		text += t.text
	}
	var value string
	for _, pre := range []string{"sys.platform==", "platform.system()==", "os.name==", "sys.platform!=", "platform.system()!=", "os.name!=", "sys.platform.startswith("} {
		if v, ok := strings.CutPrefix(text, pre); ok {
			value = strings.TrimSuffix(v, ")")
			if strings.Contains(pre, "!=") {
				neg = !neg
			}
			break
		}
	}
	if value == "" || strings.ContainsAny(strings.Trim(value, `"'`), "\"'()=!<> ") {
		return ""
	}
	p := testscan.PlatformOf(value)
	if p == "" {
		return ""
	}
	if neg {
		return "!" + p
	}
	return p
}

// readsEnv reports a condition that reads the process environment
// (os.environ, os.getenv, environ.get): a guard on where the tests run.
func readsEnv(toks []token) bool {
	for _, t := range toks {
		if t.kind == tkName && (t.text == "environ" || t.text == "getenv") {
			return true
		}
	}
	return false
}

// constTrue reports an if condition that always holds: True, 1, not False.
func constTrue(toks []token) bool {
	switch {
	case len(toks) == 1:
		return toks[0].text == "True" || toks[0].kind == tkNumber && toks[0].text != "0"
	case len(toks) == 2 && toks[0].text == "not":
		return toks[1].text == "False" || toks[1].text == "None" || toks[1].text == "0"
	}
	return false
}

// helperSkip reads a call, at the top level of a test body and before its
// first check (firstAssert, 0 for none), of a module-level def that skips
// (`skip_slow()`, whose body calls pytest.skip, or does under a condition,
// as a test's own body would): the skip it makes, at the call's line, its
// reason naming the helper. One level of helpers is read.
func (m *module) helperSkip(body []*stmt, firstAssert int) *testscan.Skip {
	for _, s := range body {
		if firstAssert != 0 && s.line >= firstAssert {
			return nil
		}
		if !bareCall(s) {
			continue
		}
		d, ok := m.topDefs[s.tok(0)]
		if !ok || !d.isDef() {
			continue
		}
		if sk := bodySkip(d.body, 0); sk != nil && sk.Kind != testscan.SkipEarlyReturn && !returnAt(d.body, sk.Line) {
			out := *sk
			out.Line = s.line
			out.Reason = strings.TrimSpace(s.tok(0) + ": " + sk.Reason)
			return &out
		}
	}
	return nil
}

// returnAt reports whether the statement at line in body is a return: a
// helper's early return skips nothing of the test that calls it.
func returnAt(body []*stmt, line int) bool {
	found := false
	walk(body, func(s *stmt) bool {
		if s.line == line && !s.header && s.tok(0) == "return" {
			found = true
		}
		return !found
	})
	return found
}

// condition strips a skip condition's tokens of what is not the test
// itself: the layout after it, an if's trailing `:`, and the `not`s before
// it, whose count makes neg.
func condition(toks []token) (rest []token, neg bool) {
	for n := len(toks); n > 0 && (toks[n-1].kind == tkNewline || toks[n-1].kind == tkIndent || toks[n-1].kind == tkDedent); n-- {
		toks = toks[:n-1]
	}
	if n := len(toks); n > 0 && isOp(toks[n-1], ":") {
		toks = toks[:n-1]
	}
	for len(toks) > 0 && toks[0].kind == tkName && toks[0].text == "not" {
		neg, toks = !neg, toks[1:]
	}
	return toks, neg
}

// versionCond reads a skip condition on the Python version alone
// (`sys.version_info >= (3, 7)`, `sys.version_info[:2] > (3, 8)`,
// `sys.version_info.major < 3`, `not ...`, the operands either way round,
// a trailing `:` allowed) and returns the highest versions a test it skips
// runs on (testscan.Skip.Runtime): "<3.7" for a skip from 3.7 on; "" for a
// condition that leaves every later version running, or any other. unless
// is set for a condition that says when to run (skipUnless).
func versionCond(toks []token, unless bool) string {
	toks, neg := condition(toks)
	neg = neg != unless
	var text strings.Builder
	for _, t := range toks {
		if t.kind == tkName && (t.text == "and" || t.text == "or" || t.text == "not") {
			return ""
		}
		text.WriteString(t.text)
	}
	s := text.String()
	op, at := "", -1
	for _, o := range []string{">=", "<=", ">", "<"} {
		if i := strings.Index(s, o); i > 0 && (at < 0 || i < at) {
			op, at = o, i
		}
	}
	if op == "" {
		return ""
	}
	left, right := s[:at], s[at+len(op):]
	if strings.ContainsAny(right, "<>=!") {
		return ""
	}
	flip := map[string]string{">=": "<=", "<=": ">=", ">": "<", "<": ">"}
	v, ok := pyVersion(left, right)
	if !ok {
		if v, ok = pyVersion(right, left); !ok {
			return ""
		}
		op = flip[op]
	}
	if neg {
		op = map[string]string{">=": "<", ">": "<=", "<": ">=", "<=": ">"}[op]
	}
	// The skip holds for the versions `version_info op v`; the test runs on
	// the others.
	switch op {
	case ">=":
		return "<" + v
	case ">":
		return "<=" + v
	}
	return ""
}

// pyVersion reads subject as the running Python's version and value as a
// version it is compared with: a tuple of numbers, or one number for the
// major version alone.
func pyVersion(subject, value string) (string, bool) {
	subject = strings.TrimPrefix(subject, "sys.")
	major := false
	switch subject {
	case "version_info", "version_info[:2]", "version_info[0:2]", "version_info[:3]":
	case "version_info[0]", "version_info.major":
		major = true
	default:
		return "", false
	}
	if major {
		if _, err := strconv.Atoi(value); err != nil {
			return "", false
		}
		return value, true
	}
	inner, open := strings.CutPrefix(value, "(")
	inner, closed := strings.CutSuffix(inner, ")")
	if !open || !closed {
		return "", false
	}
	parts := strings.Split(strings.TrimSuffix(inner, ","), ",")
	for _, p := range parts {
		if _, err := strconv.Atoi(p); err != nil {
			return "", false
		}
	}
	return strings.Join(parts, "."), true
}
