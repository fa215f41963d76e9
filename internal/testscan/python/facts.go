package python

import (
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

func sortMarkers(ms []testscan.Marker) {
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].Line < ms[j].Line })
}

// bypasses finds forced successful exits where they end the test run: anywhere
// in conftest.py, inside pytest_* hook functions of any file, and at module
// level of a test file (outside an `if __name__ == "__main__":` block).
func (m *module) bypasses() []testscan.Marker {
	var out []testscan.Marker
	var visit func(body []*stmt, inHook, moduleLevel bool)
	visit = func(body []*stmt, inHook, moduleLevel bool) {
		for _, s := range body {
			switch {
			case s.isDef():
				visit(s.body, inHook || strings.HasPrefix(s.defName(), "pytest_"), false)
				continue
			case s.isClass():
				visit(s.body, inHook, false)
				continue
			case moduleLevel && isMainGuard(s):
				continue
			}
			// Module level code of a module the tests import runs at
			// collection too; scripts run on their own.
			if m.conftest || inHook || moduleLevel && (m.isTest || !m.script()) {
				out = append(out, forcedExits(s.toks)...)
			} else if m.isTest {
				// Inside a test module's functions, sys.exit(0) and raise
				// SystemExit fail the test they run in; os._exit(0) ends
				// the process and pytest.exit(returncode=0) the session,
				// both with success and the tests after them not run.
				for _, x := range forcedExits(s.toks) {
					if strings.HasPrefix(x.Text, "os._exit") || strings.HasPrefix(x.Text, "pytest.exit") {
						out = append(out, x)
					}
				}
			}
			if (m.conftest || m.isTest || moduleLevel) && !s.header && len(s.toks) >= 4 && s.tok(1) == "." && s.tok(2) == "excepthook" && s.tok(3) == "=" &&
				(s.tok(0) == "sys" || s.tok(0) == "threading") {
				out = append(out, testscan.Marker{Line: s.line, Kind: "excepthook", Text: s.tok(0) + ".excepthook = " + compact(s.toks[4:])})
			}
			if s.header {
				visit(s.body, inHook, moduleLevel)
			}
		}
	}
	visit(m.root.body, false, true)
	return out
}

// script reports a file that is run rather than imported: setup.py,
// __main__.py, manage.py, noxfile.py, files under bin/ or scripts/, and
// files with a #! line.
func (m *module) script() bool {
	base := path.Base(m.path)
	switch base {
	case "setup.py", "__main__.py", "manage.py", "noxfile.py", "conf.py", "fabfile.py", "tasks.py":
		return true
	}
	for _, d := range strings.Split(path.Dir(m.path), "/") {
		if d == "bin" || d == "scripts" || d == "tools" || d == "examples" || d == "docs" {
			return true
		}
	}
	return m.shebang
}

// forcedExits finds calls that end the process with success: sys.exit(0),
// os._exit(0), exit(), quit(), raise SystemExit / SystemExit(0) and
// pytest.exit(returncode=0).
func forcedExits(toks []token) []testscan.Marker {
	var out []testscan.Marker
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind != tkName {
			continue
		}
		start := i
		switch t.text {
		case "exit", "_exit", "quit":
			if i > 0 && isOp(toks[i-1], ".") {
				if i < 2 {
					continue
				}
				q := toks[i-2].text
				if !(q == "sys" && t.text == "exit" || q == "os" && t.text == "_exit" || q == "pytest" && t.text == "exit") {
					continue
				}
				start = i - 2
			} else if t.text == "_exit" {
				continue
			}
			if i+1 >= len(toks) || !isOp(toks[i+1], "(") {
				continue
			}
			close := matchClose(toks, i+1)
			args := parseArgs(toks[i+2 : max(close, i+2)])
			code := positional(args, 0)
			if start == i-2 && toks[start].text == "pytest" {
				code = keyword(args, "returncode")
				if code == nil {
					continue
				}
			}
			if successCode(code) {
				out = append(out, testscan.Marker{Line: int(t.line), Kind: "forced-exit", Text: compact(toks[start : close+1])})
			}
			i = close
		case "SystemExit":
			if i == 0 || toks[i-1].text != "raise" {
				continue
			}
			end := i
			var code []token
			if i+1 < len(toks) && isOp(toks[i+1], "(") {
				end = matchClose(toks, i+1)
				code = positional(parseArgs(toks[i+2:max(end, i+2)]), 0)
			}
			if successCode(code) {
				out = append(out, testscan.Marker{Line: int(t.line), Kind: "forced-exit", Text: "raise " + compact(toks[i:end+1])})
			}
			i = end
		}
	}
	return out
}

// successCode reports whether an exit code argument means success.
func successCode(code []token) bool {
	if len(code) == 0 {
		return true
	}
	v := evalLiteral(code, nil)
	if (v.kind == vNum || v.kind == vConst) && v.falsy {
		return true
	}
	switch dotted(stripParens(code)) {
	case "os.EX_OK", "ExitCode.OK", "pytest.ExitCode.OK":
		return true
	}
	return false
}

// exports lists the public API of the module: the names of a literal __all__,
// or else its public top-level functions and classes and the public methods of
// those classes ("Class.method").
func (m *module) exports() []testscan.Symbol {
	if names, line, ok := m.dunderAll(); ok {
		out := make([]testscan.Symbol, 0, len(names))
		for _, n := range names {
			sym := testscan.Symbol{Name: n, Kind: "var", Line: line}
			if d, ok := m.topDefs[n]; ok {
				sym.Line = d.line
				sym.Kind = "func"
				if d.isClass() {
					sym.Kind = "class"
				}
			}
			out = append(out, sym)
		}
		return out
	}
	var out []testscan.Symbol
	for _, s := range m.root.body {
		name := s.defName()
		if name == "" || strings.HasPrefix(name, "_") {
			continue
		}
		switch {
		case s.isDef():
			out = append(out, testscan.Symbol{Name: name, Kind: "func", Line: s.line})
		case s.isClass():
			out = append(out, testscan.Symbol{Name: name, Kind: "class", Line: s.line})
			var defs []*stmt
			collectDefs(s.body, &defs)
			seen := map[string]bool{}
			for _, d := range defs {
				mn := d.defName()
				if mn == "" || strings.HasPrefix(mn, "_") || seen[mn] {
					continue
				}
				seen[mn] = true
				out = append(out, testscan.Symbol{Name: name + "." + mn, Kind: "method", Line: d.line})
			}
		}
	}
	return out
}

// dunderAll reads a literal __all__ (with += and .extend additions). ok is false
// when there is none or any part is not a list or tuple of strings.
func (m *module) dunderAll() (names []string, line int, ok bool) {
	for _, s := range m.root.body {
		if s.tok(0) != "__all__" || s.header {
			continue
		}
		var val []token
		switch {
		case s.tok(1) == "=" || s.tok(1) == "+=":
			val = s.toks[2:]
			if s.tok(1) == "=" {
				names, line = nil, s.line
			}
		case s.tok(1) == ":" && indexOp(s.toks, "=") > 0:
			val = s.toks[indexOp(s.toks, "=")+1:]
			names, line = nil, s.line
		case s.tok(1) == "." && s.tok(2) == "extend" && s.tok(3) == "(" && isOp(s.toks[len(s.toks)-1], ")"):
			val = s.toks[4 : len(s.toks)-1]
		default:
			return nil, 0, false
		}
		v := evalLiteral(val, nil)
		if v.kind != vSeq {
			return nil, 0, false
		}
		for _, e := range v.elems {
			if e.kind != vStr {
				return nil, 0, false
			}
			names = append(names, unquote(e.canon))
		}
		ok = true
	}
	return names, line, ok
}

// comparisons finds literal operands of ==, != and in in if/elif/while
// conditions and match-case guards, and the literal patterns of case clauses.
func (m *module) comparisons() []testscan.Marker {
	var out []testscan.Marker
	var visit func(body []*stmt, inMatch bool)
	visit = func(body []*stmt, inMatch bool) {
		for _, s := range body {
			switch kw := s.tok(0); {
			case s.header && (kw == "if" || kw == "elif" || kw == "while") && !isMainGuard(s):
				from := len(out)
				out = append(out, literalComparisons(s.toks[1:])...)
				if kw != "while" {
					ret := returnedLiteral(s.body)
					for i := from; i < len(out); i++ {
						out[i].Value = ret
					}
				}
			case s.header && inMatch && kw == "case":
				pattern := s.toks[1:]
				if parts := splitBool(pattern, "if"); len(parts) > 1 {
					pattern = parts[0]
					out = append(out, literalComparisons(s.toks[len(parts[0])+2:])...)
				}
				for _, alt := range splitTop(pattern, "|") {
					if v := evalLiteral(alt, nil); isScalar(v) && !trivialLiteral(v) {
						out = append(out, testscan.Marker{Line: int(alt[0].line), Kind: "literal", Text: v.canon})
					}
				}
			}
			if s.header {
				visit(s.body, s.tok(0) == "match")
			}
		}
	}
	visit(m.root.body, false)
	return out
}

// returnedLiteral is the literal a block returns at once (`return 28`:
// "28"; the first element of `return 28, None`), "" when it does not.
func returnedLiteral(body []*stmt) string {
	if len(body) == 0 || body[0].tok(0) != "return" || len(body[0].toks) < 2 {
		return ""
	}
	expr := body[0].toks[1:]
	if parts := splitTop(expr, ","); len(parts) > 1 {
		expr = parts[0]
	}
	if v := evalLiteral(expr, nil); isScalar(v) {
		return v.canon
	}
	return ""
}

func isScalar(v pyValue) bool { return v.kind == vStr || v.kind == vBytes || v.kind == vNum }

// literalComparisons finds the literals compared with ==, != or (not) in
// inside a condition expression.
func literalComparisons(expr []token) []testscan.Marker {
	var out []testscan.Marker
	add := func(toks []token) {
		if len(toks) == 0 {
			return
		}
		v := evalLiteral(toks, nil)
		if isScalar(v) && !trivialLiteral(v) {
			out = append(out, testscan.Marker{Line: int(toks[0].line), Kind: "literal", Text: v.canon})
		}
	}
	for i, t := range expr {
		isEq := t.kind == tkOp && (t.text == "==" || t.text == "!=")
		isIn := t.kind == tkName && t.text == "in"
		if !isEq && !isIn {
			continue
		}
		left := i
		if isIn && i > 0 && expr[i-1].text == "not" {
			left = i - 1
		}
		add(operandBefore(expr, left))
		right := operandAfter(expr, i+1)
		if isIn && len(right) >= 2 && isOpener(right[0]) {
			for _, e := range splitTop(right[1:len(right)-1], ",") {
				add(e)
			}
			continue
		}
		add(right)
	}
	return out
}

// boundary reports whether t cannot be part of an operand next to it.
func boundary(t token) bool {
	switch t.kind {
	case tkOp:
		switch t.text {
		case "(", "[", "{", ")", "]", "}", ",", ":", "==", "!=", "<", ">", "<=", ">=", ":=":
			return true
		}
	case tkName:
		switch t.text {
		case "and", "or", "not", "if", "else", "in", "is", "for", "lambda":
			return true
		}
	}
	return false
}

// operandBefore returns the literal operand ending just before i: adjacent
// strings or an optionally negated number, delimited by a boundary.
func operandBefore(expr []token, i int) []token {
	j := i - 1
	if j < 0 {
		return nil
	}
	start := j
	switch expr[j].kind {
	case tkString:
		for start > 0 && expr[start-1].kind == tkString {
			start--
		}
	case tkNumber:
		if start > 0 && isOp(expr[start-1], "-") && (start == 1 || boundary(expr[start-2])) {
			start--
		}
	default:
		return nil
	}
	if start > 0 && !boundary(expr[start-1]) {
		return nil
	}
	return expr[start : j+1]
}

// operandAfter returns the operand starting at i when it is a literal or a
// bracketed display, delimited by a boundary.
func operandAfter(expr []token, i int) []token {
	if i >= len(expr) {
		return nil
	}
	end := i
	switch {
	case expr[i].kind == tkString:
		for end+1 < len(expr) && expr[end+1].kind == tkString {
			end++
		}
	case expr[i].kind == tkNumber:
	case isOp(expr[i], "-") && i+1 < len(expr) && expr[i+1].kind == tkNumber:
		end = i + 1
	case isOpener(expr[i]):
		end = matchClose(expr, i)
	default:
		return nil
	}
	if end+1 < len(expr) && !boundary(expr[end+1]) {
		return nil
	}
	return expr[i : end+1]
}

func unquote(canon string) string {
	if s, err := strconv.Unquote(canon); err == nil {
		return s
	}
	return canon
}

// underTest finds production code asking whether it runs under a test
// runner: `"pytest" in sys.modules` (or unittest, _pytest), and the
// PYTEST_CURRENT_TEST variable pytest sets. A branch whose first statement
// returns a literal (a canned answer) is kind "under-test-canned".
func (m *module) underTest() []testscan.Marker {
	if m.isTest || strings.HasSuffix(m.path, "conftest.py") {
		return nil
	}
	var out []testscan.Marker
	var visit func(body []*stmt)
	visit = func(body []*stmt) {
		for _, s := range body {
			if text, line, ok := underTestIn(s.toks); ok {
				kind := "under-test"
				if kw := s.tok(0); s.header && (kw == "if" || kw == "elif") && len(s.body) > 0 &&
					s.body[0].tok(0) == "return" && evalLiteral(s.body[0].toks[1:], nil).literal() {
					kind = "under-test-canned"
				}
				out = append(out, testscan.Marker{Line: line, Kind: kind, Text: text})
			}
			if s.header {
				visit(s.body)
			}
		}
	}
	visit(m.root.body)
	return out
}

// readsEnviron reports a statement that reads the environment (os.environ,
// os.getenv, environ.get).
func readsEnviron(toks []token) bool {
	for _, t := range toks {
		if t.kind == tkName && (t.text == "environ" || t.text == "getenv") {
			return true
		}
	}
	return false
}

// underTestIn finds a test-runner check in a statement's tokens.
func underTestIn(toks []token) (text string, line int, ok bool) {
	for i, t := range toks {
		if t.kind != tkString {
			continue
		}
		v := parseStringToken(t.text).value()
		switch {
		case v == "PYTEST_CURRENT_TEST":
			return "PYTEST_CURRENT_TEST", int(t.line), true
		case testscan.TestModeVar(v) && readsEnviron(toks):
			return "os.environ " + v, int(t.line), true
		case (v == "pytest" || v == "_pytest" || v == "unittest") && i+4 < len(toks) &&
			toks[i+1].kind == tkName && toks[i+1].text == "in" &&
			toks[i+2].kind == tkName && toks[i+2].text == "sys" &&
			toks[i+3].kind == tkOp && toks[i+3].text == "." &&
			toks[i+4].kind == tkName && toks[i+4].text == "modules":
			return `"` + v + `" in sys.modules`, int(t.line), true
		}
	}
	return "", 0, false
}
