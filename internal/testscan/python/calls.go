package python

import (
	"slices"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// testCalls returns the calls of a test function (testscan.TestCase.Calls):
// the fixtures it requests, first, then the calls in its body.
// It also returns the functions of imported modules the test calls
// (testscan.TestCase.Uses), and the calls made only on a thread
// (testscan.TestCase.Detached), which are not among its calls.
func (m *module) testCalls(def *stmt, scopes []classScope) ([]testscan.Call, []string, []string) {
	decos := [][]*stmt{def.decos}
	for i := len(scopes) - 1; i >= 0; i-- {
		decos = append(decos, scopes[i].decos)
	}
	calls := fixtureCalls(m.callBuf[:0], def, decos)
	var uses []string
	m.uses = &uses
	m.detached = detachedRegions(def.body)
	var detached []testscan.Call
	m.offThread = &detached
	calls = m.bodyCalls(calls, def.body)
	m.uses, m.detached, m.offThread = nil, nil, nil
	return m.keepCalls(calls), uses, testscan.OnlyDetached(detached, calls)
}

// use records a call of an imported function, by its dotted name, while
// testCalls reads a test.
func (m *module) use(name string) {
	if m.uses == nil || len(*m.uses) >= testscan.MaxCalls || slices.Contains(*m.uses, name) {
		return
	}
	*m.uses = append(*m.uses, name)
}

// helperCalls returns the calls of a helper: for a fixture, the fixtures it
// requests, then the calls in its body.
func (m *module) helperCalls(def *stmt) []testscan.Call {
	calls := m.callBuf[:0]
	if isFixture(def) {
		calls = fixtureCalls(calls, def, nil)
	}
	return m.keepCalls(m.bodyCalls(calls, def.body))
}

// keepCalls returns a copy of calls, gathered in m.callBuf, and keeps the
// buffer for the next function; nil when there are none.
func (m *module) keepCalls(calls []testscan.Call) []testscan.Call {
	m.callBuf = calls[:0]
	if len(calls) == 0 {
		return nil
	}
	return slices.Clone(calls)
}

// fixtureCalls adds the fixtures a function requests to calls: its parameters
// without a default value, other than self, cls, *args, **kwargs, pytest's
// own fixtures and the names a parametrize mark of decos gives values to,
// then the names of its usefixtures marks. decos are the decorators of the
// function and of its enclosing classes, innermost first.
func fixtureCalls(calls []testscan.Call, def *stmt, decos [][]*stmt) []testscan.Call {
	var params []string // parametrized names, read only when needed
	paramsRead := false
	for _, name := range paramNames(def) {
		if builtinFixtures[name] {
			continue
		}
		if !paramsRead {
			paramsRead = true
			params = markNames(decos, "parametrize")
		}
		if !slices.Contains(params, name) {
			calls = testscan.AddCall(calls, name)
		}
	}
	for _, name := range markNames(decos, "usefixtures") {
		calls = testscan.AddCall(calls, name)
	}
	return calls
}

// paramNames returns the names of a def's parameters that pytest fills with
// fixtures: those without a default, other than self and cls and the *args and
// **kwargs catch-alls.
func paramNames(def *stmt) []string {
	i := 2
	if def.tok(0) == "async" {
		i = 3
	}
	if i >= len(def.toks) || !isOp(def.toks[i], "(") {
		return nil
	}
	close := matchClose(def.toks, i)
	inner := def.toks[i+1:]
	if isOp(def.toks[close], ")") {
		inner = def.toks[i+1 : close]
	}
	var out []string
	for _, p := range splitTop(inner, ",") {
		if len(p) == 0 || p[0].kind != tkName || p[0].text == "self" || p[0].text == "cls" {
			continue // *args, **kwargs, the * and / markers
		}
		if hasTopOp(p, "=") {
			continue // a default value: name=1, name: int = 1
		}
		out = append(out, p[0].text)
	}
	return out
}

// hasTopOp reports whether the operator op occurs in toks outside brackets.
func hasTopOp(toks []token, op string) bool {
	depth := 0
	for _, t := range toks {
		switch {
		case isOpener(t):
			depth++
		case isCloser(t):
			depth--
		case depth == 0 && isOp(t, op):
			return true
		}
	}
	return false
}

// markNames returns the names given to the pytest marks called mark among
// decos: the argnames of parametrize, the fixtures of usefixtures. Only the
// first argument of a parametrize mark is read, not its table.
func markNames(decos [][]*stmt, mark string) []string {
	var out []string
	for _, ds := range decos {
		for _, d := range ds {
			toks := d.toks
			open := 1
			for open < len(toks) && !isOp(toks[open], "(") {
				open++
			}
			if open+1 >= len(toks) || toks[open-1].text != mark {
				continue
			}
			if name := dotted(toks[1:open]); name != "pytest.mark."+mark && name != "mark."+mark && name != mark {
				continue
			}
			close := matchClose(toks, open)
			args := toks[open+1 : max(close, open+1)]
			if !isOp(toks[close], ")") {
				args = toks[open+1:]
			}
			if mark == "parametrize" {
				first := firstArg(args)
				if len(first) > 2 && first[0].text == "argnames" && isOp(first[1], "=") {
					first = first[2:]
				}
				names, _ := argNames(first)
				out = append(out, names...)
				continue
			}
			for _, a := range splitTop(args, ",") {
				if len(a) == 1 && a[0].kind == tkString {
					if n := strings.TrimSpace(parseStringToken(a[0].text).value()); n != "" {
						out = append(out, n)
					}
				}
			}
		}
	}
	return out
}

// firstArg returns the tokens of the first argument of an argument list.
func firstArg(args []token) []token {
	depth := 0
	for i, t := range args {
		switch {
		case isOpener(t):
			depth++
		case isCloser(t):
			depth--
		case depth == 0 && isOp(t, ","):
			return args[:i]
		}
	}
	return args
}

// bodyCalls adds the calls of the statements of body, and of the functions
// and classes nested in them, to calls.
func (m *module) bodyCalls(calls []testscan.Call, body []*stmt) []testscan.Call {
	walk(body, func(s *stmt) bool {
		calls = m.stmtCalls(calls, s)
		return true
	})
	return calls
}

// stmtCalls adds the calls in one statement's tokens to calls: "f" for
// f(...), ".m" for x.m(...). Keywords, builtins, the assertions, methods of
// literals ("".join), unittest's own TestCase methods (self.subTest), and the
// names the file imports from other than test support modules, called
// (from app import make; make()) or called on (os.path.join, np.array), are
// left out.
func (m *module) stmtCalls(calls []testscan.Call, s *stmt) []testscan.Call {
	toks := s.toks
	for i := 0; i+1 < len(toks); i++ {
		t := toks[i]
		if t.kind != tkName || toks[i+1].kind != tkOp || toks[i+1].text != "(" {
			continue
		}
		name := t.text
		if pyKeywords[name] || i == 0 && s.header && (name == "match" || name == "case") {
			continue
		}
		if i > 0 && toks[i-1].kind == tkName && (toks[i-1].text == "def" || toks[i-1].text == "class") {
			continue // a nested definition
		}
		if assertCallKind(toks, i) != acNone {
			continue
		}
		if m.offThread != nil && (inDetached(m.detached, t.off) != nil || i == 0 && bareCall(s) && m.inertTop(name)) {
			// Run on a thread: its failure never reaches the test.
			if i == 0 || !isOp(toks[i-1], ".") {
				*m.offThread = testscan.AddCall(*m.offThread, name)
			} else {
				*m.offThread = testscan.AddMethodCall(*m.offThread, name)
			}
			continue
		}
		if i == 0 || !isOp(toks[i-1], ".") {
			switch {
			case pyBuiltins[name]:
			case m.importNames()[name]:
				m.use(name)
			default:
				calls = testscan.AddCall(calls, name)
			}
			continue
		}
		if i < 2 {
			continue
		}
		recv := toks[i-2]
		switch {
		case recv.kind == tkString || recv.kind == tkNumber:
			continue // "".join(...), "{}".format(...)
		case recv.kind == tkName && (recv.text == "self" || recv.text == "cls") && testCaseMethods[name]:
			continue
		case recv.kind == tkName && m.onImport(toks, i-2):
			if m.uses != nil {
				m.use(dottedBefore(toks, i))
			}
			continue
		}
		calls = testscan.AddMethodCall(calls, name)
	}
	return calls
}

// onImport reports whether the name at i starts a dotted name (a.b.c, no
// calls or subscripts) and is bound by an import statement of the module.
func (m *module) onImport(toks []token, i int) bool {
	for i >= 2 && isOp(toks[i-1], ".") && toks[i-2].kind == tkName {
		i -= 2
	}
	if i >= 1 && isOp(toks[i-1], ".") {
		return false // an attribute of a call's or subscript's value
	}
	return m.importNames()[toks[i].text]
}

// importNames returns the names the module's import statements bind
// (import os, import numpy as np, from app.models import User), anywhere in
// the file. Names imported from modules that look like the project's test
// support code (tests.helpers, testutils, conftest, relative imports) are
// left out: their functions may be helpers.
func (m *module) importNames() map[string]bool {
	if m.imports != nil {
		return m.imports
	}
	m.imports = map[string]bool{}
	walk(m.root.body, func(s *stmt) bool {
		if s.header {
			return true
		}
		switch s.tok(0) {
		case "import":
			for _, part := range splitTop(s.toks[1:], ",") {
				if len(part) == 0 || part[0].kind != tkName {
					continue
				}
				name, module := part[0].text, part
				if n := len(part); n >= 3 && part[n-2].text == "as" && part[n-1].kind == tkName {
					name, module = part[n-1].text, part[:n-2]
				}
				if !helperModule(module) {
					m.imports[name] = true
				}
			}
		case "from":
			k := 1
			for k < len(s.toks) && s.toks[k].text != "import" {
				k++
			}
			if k == 1 || k >= len(s.toks) || helperModule(s.toks[1:k]) {
				return true
			}
			for _, part := range splitTop(s.toks[k+1:], ",") {
				part = stripParens(part)
				if n := len(part); n > 0 && part[n-1].kind == tkName && (n == 1 || n == 3 && part[1].text == "as") {
					m.imports[part[n-1].text] = true
				}
			}
		}
		return true
	})
	return m.imports
}

// helperModule reports whether a dotted module name looks like test support
// code of the project: a relative import, a segment named or prefixed like
// tests, or holding helper, util, fixture, common, support or conftest.
func helperModule(dotted []token) bool {
	if len(dotted) > 0 && isOp(dotted[0], ".") || len(dotted) > 0 && isOp(dotted[0], "...") {
		return true // a relative import
	}
	for _, t := range dotted {
		if t.kind != tkName {
			continue
		}
		n := strings.ToLower(t.text)
		if n == "pytest" || n == "unittest" {
			continue
		}
		if strings.HasPrefix(n, "test") || strings.HasSuffix(n, "test") || strings.HasSuffix(n, "tests") {
			return true
		}
		for _, w := range []string{"helper", "util", "fixture", "common", "support", "conftest"} {
			if strings.Contains(n, w) {
				return true
			}
		}
	}
	return false
}

// pyBuiltins are Python's builtin functions and exception classes, and
// pytest's approx, which only builds an assertion's operand.
var pyBuiltins = map[string]bool{
	"abs": true, "aiter": true, "all": true, "anext": true, "any": true, "ascii": true,
	"bin": true, "bool": true, "breakpoint": true, "bytearray": true, "bytes": true,
	"callable": true, "chr": true, "classmethod": true, "compile": true, "complex": true,
	"delattr": true, "dict": true, "dir": true, "divmod": true, "enumerate": true,
	"eval": true, "exec": true, "filter": true, "float": true, "format": true,
	"frozenset": true, "getattr": true, "globals": true, "hasattr": true, "hash": true,
	"help": true, "hex": true, "id": true, "input": true, "int": true, "isinstance": true,
	"issubclass": true, "iter": true, "len": true, "list": true, "locals": true,
	"map": true, "max": true, "memoryview": true, "min": true, "next": true,
	"object": true, "oct": true, "open": true, "ord": true, "pow": true, "print": true,
	"property": true, "range": true, "repr": true, "reversed": true, "round": true,
	"set": true, "setattr": true, "slice": true, "sorted": true, "staticmethod": true,
	"str": true, "sum": true, "super": true, "tuple": true, "type": true, "vars": true,
	"zip": true, "__import__": true,
	"BaseException": true, "Exception": true, "ArithmeticError": true, "AssertionError": true,
	"AttributeError": true, "ConnectionError": true, "EOFError": true, "FileExistsError": true,
	"FileNotFoundError": true, "ImportError": true, "IndexError": true, "IOError": true,
	"KeyError": true, "KeyboardInterrupt": true, "LookupError": true, "ModuleNotFoundError": true,
	"NameError": true, "NotImplementedError": true, "OSError": true, "OverflowError": true,
	"PermissionError": true, "RecursionError": true, "RuntimeError": true, "StopIteration": true,
	"StopAsyncIteration": true, "SystemExit": true, "TimeoutError": true, "TypeError": true,
	"UnicodeDecodeError": true, "UnicodeEncodeError": true, "ValueError": true,
	"ZeroDivisionError": true, "Warning": true, "UserWarning": true, "DeprecationWarning": true,
	"RuntimeWarning": true, "FutureWarning": true, "PendingDeprecationWarning": true,
	"approx": true,
}

// testCaseMethods are unittest.TestCase's own methods that are not
// assertions: called on self, they run no helper of the file.
var testCaseMethods = map[string]bool{
	"subTest": true, "skipTest": true, "fail": true, "addCleanup": true,
	"addClassCleanup": true, "enterContext": true, "enterClassContext": true,
	"doCleanups": true, "shortDescription": true, "id": true, "addTypeEqualityFunc": true,
}

// builtinFixtures are pytest's own fixtures and those of common plugins,
// which no helper of the project defines.
var builtinFixtures = map[string]bool{
	"request": true, "tmp_path": true, "tmpdir": true, "tmp_path_factory": true,
	"tmpdir_factory": true, "monkeypatch": true, "capsys": true, "capfd": true,
	"capsysbinary": true, "capfdbinary": true, "caplog": true, "recwarn": true,
	"pytestconfig": true, "record_property": true, "record_testsuite_property": true,
	"record_xml_attribute": true, "cache": true, "doctest_namespace": true,
	"testdir": true, "pytester": true, "mocker": true, "event_loop": true, "subtests": true,
}

// dottedBefore returns the dotted name that ends at toks[i] (a.b.c for
// the c of a.b.c(...)).
func dottedBefore(toks []token, i int) string {
	j := i
	for j >= 2 && isOp(toks[j-1], ".") && toks[j-2].kind == tkName {
		j -= 2
	}
	var b strings.Builder
	for k := j; k <= i; k++ {
		b.WriteString(toks[k].text)
	}
	return b.String()
}

// inertTop reports a top-level def of the module whose call runs none of
// its body (see inert): a bare call of it checks nothing.
func (m *module) inertTop(name string) bool {
	d, ok := m.topDefs[name]
	return ok && d.isDef() && inert(d)
}
