package python

import (
	"slices"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// A check of a function the test replaced with a stub checks the stub's
// answer: `monkeypatch.setattr(calc, "parse", lambda s: 42)` then `assert
// calc.parse("x") == 42` cannot fail. The replacements read are pytest's
// monkeypatch.setattr, unittest.mock's patch and patch.object (called,
// as a context manager or as a decorator) and pytest-mock's mocker.patch,
// in the test's body and decorators, in the fixtures it requests by name
// and in the file's autouse fixtures. A check of other code that calls
// the stub (a dependency mocked) is untouched.

// patchedNames returns the names of the functions a def replaces: the
// last part of a patch target ("src.calc.parse": parse), or the attribute
// named by patch.object and setattr(obj, "name", ...).
func patchedNames(def *stmt) []string {
	var out []string
	add := func(toks []token) {
		for i := 0; i+1 < len(toks); i++ {
			if toks[i].kind != tkName || !isOp(toks[i+1], "(") {
				continue
			}
			callee := dottedBefore(toks, i)
			args := callArgs(toks, i+1)
			var target []token
			switch {
			case strings.HasSuffix(callee, "patch.object") && len(args) >= 2:
				target = args[1]
			case (callee == "patch" || strings.HasSuffix(callee, ".patch")) && len(args) >= 1:
				target = args[0]
			case strings.HasSuffix(callee, "setattr") && len(args) >= 2:
				target = args[0]
				if !oneString(target) {
					target = args[1]
				}
			}
			if oneString(target) {
				name := strings.Trim(target[0].text, `"'`)
				if k := strings.LastIndexByte(name, '.'); k >= 0 {
					name = name[k+1:]
				}
				if name != "" && !slices.Contains(out, name) {
					out = append(out, name)
				}
			}
		}
	}
	for _, d := range def.decos {
		add(d.toks)
	}
	walk(def.body, func(s *stmt) bool {
		add(s.toks)
		return true
	})
	return out
}

// oneString reports whether toks is one plain string literal.
func oneString(toks []token) bool {
	return len(toks) == 1 && toks[0].kind == tkString && !strings.ContainsAny(toks[0].text[:1], "fFbB")
}

// callArgs splits the arguments of the call whose "(" is at open, at its
// top-level commas; nil when the parentheses do not close.
func callArgs(toks []token, open int) [][]token {
	end := matchClose(toks, open)
	if end <= open || end >= len(toks) || !isOp(toks[end], ")") {
		return nil
	}
	var out [][]token
	start, depth := open+1, 0
	for j := open + 1; j < end; j++ {
		switch {
		case isOpener(toks[j]):
			depth++
		case isCloser(toks[j]):
			depth--
		case depth == 0 && isOp(toks[j], ","):
			out = append(out, toks[start:j])
			start = j + 1
		}
	}
	if start < end {
		out = append(out, toks[start:end])
	}
	return out
}

// autouse reports whether a fixture def is marked autouse=True.
func autouse(def *stmt) bool {
	for _, d := range def.decos {
		for i := 0; i+2 < len(d.toks); i++ {
			if d.toks[i].text == "autouse" && isOp(d.toks[i+1], "=") && d.toks[i+2].text == "True" {
				return true
			}
		}
	}
	return false
}

// stubbedChecks makes trivial the checks of a test whose subject calls a
// function the test, a fixture it requests or an autouse fixture of the
// file replaced.
func (m *module) stubbedChecks(def *stmt, tc *testscan.TestCase) {
	if len(tc.Assertions) == 0 {
		return
	}
	var requested []*stmt
	for _, p := range paramNames(def) {
		requested = append(requested, m.topDefs[p])
	}
	patched := append(patchedNames(def), fixturePatches(m, requested)...)
	patched = append(patched, m.autousePatched()...)
	if len(patched) == 0 {
		return
	}
	for i := range tc.Assertions {
		a := &tc.Assertions[i]
		if c := testscan.LastCallee(a.Subject); c != "" && slices.Contains(patched, c) {
			a.Strength = testscan.Trivial
		}
	}
}

// fixturePatches returns what the fixtures among roots, and the fixtures
// they request in turn, replace.
func fixturePatches(m *module, roots []*stmt) []string {
	var out []string
	seen := map[*stmt]bool{}
	var from func(f *stmt)
	from = func(f *stmt) {
		if f == nil || seen[f] || !isFixture(f) {
			return
		}
		seen[f] = true
		for _, n := range patchedNames(f) {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
		for _, p := range paramNames(f) {
			from(m.topDefs[p])
		}
	}
	for _, f := range roots {
		from(f)
	}
	return out
}

// autousePatched returns the functions the module's autouse fixtures (and
// the fixtures they request) replace, sorted, read once per module: for
// every test of the file, and in a conftest.py for every test of its
// directory.
func (m *module) autousePatched() []string {
	if m.autouse == nil {
		var roots []*stmt
		for _, f := range m.topDefs {
			if isFixture(f) && autouse(f) {
				roots = append(roots, f)
			}
		}
		m.autouse = fixturePatches(m, roots)
		slices.Sort(m.autouse)
		if m.autouse == nil {
			m.autouse = []string{}
		}
	}
	return m.autouse
}

// throughLocals reads the checks whose value goes through a local name the
// test sets once, at its top level, before the check: an expected value
// taken from the code under test (`expected = parse(s)` then `assert
// parse(s) == expected`: the expected value is parse(s)), and a constant
// true alternative (`ok = True` then `assert x == 42 or ok`). Other
// checks keep the names as written.
func throughLocals(body []*stmt, tc *testscan.TestCase) {
	type local struct {
		value string
		line  int
	}
	locals := map[string]*local{}
	assigned := map[string]int{}
	walk(body, func(s *stmt) bool {
		if s.header {
			return true
		}
		toks := s.toks
		if len(toks) >= 3 && toks[0].kind == tkName && isOp(toks[1], "=") {
			assigned[toks[0].text]++
		}
		return true
	})
	for _, s := range body {
		toks := s.toks
		if !s.header && len(toks) >= 3 && toks[0].kind == tkName && isOp(toks[1], "=") && assigned[toks[0].text] == 1 {
			locals[toks[0].text] = &local{compact(toks[2:]), s.line}
		}
	}
	if len(locals) == 0 {
		return
	}
	for i := range tc.Assertions {
		a := &tc.Assertions[i]
		if l := locals[a.Expected]; l != nil && l.line < a.Line {
			if c := testscan.LastCallee(a.Subject); c != "" && testscan.LastCallee(l.value) == c {
				a.Expected = l.value
			}
		}
		if a.Expected == "" && strings.Contains(a.Subject, " or ") {
			parts := strings.Split(a.Subject, " or ")
			for k, p := range parts {
				if l := locals[strings.TrimSpace(p)]; l != nil && l.line < a.Line && (l.value == "True" || l.value == "1") {
					parts[k] = l.value
				}
			}
			a.Subject = strings.Join(parts, " or ")
		}
	}
}
