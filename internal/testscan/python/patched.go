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

// patchSite is a replacement read in a def's decorators or body.
type patchSite struct {
	testscan.Mock
	// bind is the name the mock object is bound to (`with patch(..) as
	// m`, `m = mocker.patch(..)`, a decorator's mock parameter), "" when
	// none: a later `m.return_value = 5` sets its answer.
	bind string
}

// patchSites returns the replacements a def makes: pytest's
// monkeypatch.setattr, unittest.mock's patch and patch.object (called, as
// a context manager or as a decorator) and pytest-mock's mocker.patch.
// Each is named by the last part of its target ("src.calc.parse": parse)
// or the attribute patch.object and setattr(obj, "name", ...) name; its
// answer is a literal return_value, a lambda returning a literal given as
// the replacement or its side_effect, or a literal the body sets as the
// bound mock's return_value.
func patchSites(def *stmt) []patchSite {
	var out []patchSite
	var passed []int // the decorators' sites that pass their mock in, top first
	read := func(toks []token, deco bool) {
		for i := 0; i+1 < len(toks); i++ {
			if toks[i].kind != tkName || !isOp(toks[i+1], "(") {
				continue
			}
			site, passes, ok := patchCall(toks, i)
			if !ok {
				continue
			}
			close := matchClose(toks, i+1)
			start := i
			for start >= 2 && isOp(toks[start-1], ".") && toks[start-2].kind == tkName {
				start -= 2
			}
			switch {
			case deco && passes:
				passed = append(passed, len(out))
			case close+2 < len(toks) && toks[close+1].kind == tkName && toks[close+1].text == "as" && toks[close+2].kind == tkName:
				site.bind = toks[close+2].text
			case start == 2 && toks[0].kind == tkName && isOp(toks[1], "="):
				site.bind = toks[0].text
			}
			if !slices.ContainsFunc(out, func(o patchSite) bool { return o.Mock == site.Mock }) {
				out = append(out, site)
			}
		}
	}
	for _, d := range def.decos {
		read(d.toks, true)
	}
	// Decorators apply bottom up: the lowest passes the first parameter.
	params := paramNames(def)
	for k := range passed {
		if k < len(params) {
			out[passed[len(passed)-1-k]].bind = params[k]
		}
	}
	walk(def.body, func(s *stmt) bool {
		read(s.toks, false)
		return true
	})
	// m.return_value = 5
	walk(def.body, func(s *stmt) bool {
		t := s.toks
		if s.header || len(t) < 5 || t[0].kind != tkName || !isOp(t[1], ".") || t[2].text != "return_value" || !isOp(t[3], "=") {
			return true
		}
		if v := mockAnswer(t[4:]); v != "" {
			for k := range out {
				if out[k].bind == t[0].text && out[k].Returns == "" {
					out[k].Returns = v
				}
			}
		}
		return true
	})
	return out
}

// patchCall reads the call whose name is toks[i] as a patch: the site, and
// whether, as a decorator, it passes the mock to the test (no replacement
// given). ok is false for any other call.
func patchCall(toks []token, i int) (site patchSite, passes, ok bool) {
	callee := dottedBefore(toks, i)
	args := callArgs(toks, i+1)
	var target, owner, repl []token
	var named []callArg
	if close := matchClose(toks, i+1); len(args) > 0 {
		named = parseArgs(toks[i+2 : close])
	}
	switch {
	case strings.HasSuffix(callee, "patch.object") && len(args) >= 2:
		owner, target = args[0], args[1]
		repl = argOr(named, 2, "new")
	case (callee == "patch" || strings.HasSuffix(callee, ".patch")) && len(args) >= 1:
		target = args[0]
		repl = argOr(named, 1, "new")
	case strings.HasSuffix(callee, "setattr") && len(args) >= 2:
		target, repl = args[0], positional(named, 1)
		if !oneString(target) {
			owner, target, repl = args[0], args[1], positional(named, 2)
		}
	}
	if !oneString(target) {
		return patchSite{}, false, false
	}
	full := strings.Trim(target[0].text, `"'`)
	name := full
	if k := strings.LastIndexByte(name, '.'); k >= 0 {
		name = name[k+1:]
	}
	if name == "" {
		return patchSite{}, false, false
	}
	if owner != nil {
		full = compact(owner) + "." + full
	}
	m := testscan.Mock{Line: int(toks[i].line), Target: full, Name: name}
	m.Returns = mockAnswer(keyword(named, "return_value"))
	if m.Returns == "" {
		m.Returns = lambdaAnswer(repl)
	}
	if m.Returns == "" {
		m.Returns = lambdaAnswer(keyword(named, "side_effect"))
	}
	return patchSite{Mock: m}, repl == nil && !strings.HasSuffix(callee, "setattr"), true
}

// lambdaAnswer returns the literal a lambda returns (`lambda *a, **k: 5`),
// "" for anything else.
func lambdaAnswer(toks []token) string {
	if len(toks) < 3 || toks[0].kind != tkName || toks[0].text != "lambda" {
		return ""
	}
	depth := 0
	for j := 1; j < len(toks); j++ {
		switch {
		case isOpener(toks[j]):
			depth++
		case isCloser(toks[j]):
			depth--
		case depth == 0 && isOp(toks[j], ":"):
			return mockAnswer(toks[j+1:])
		}
	}
	return ""
}

// mockAnswer returns toks normalized when they are a literal answer: a
// number, string, True or False, or a display of them; "" otherwise (a
// name, a call, an f-string, None).
func mockAnswer(toks []token) string {
	if len(toks) == 0 {
		return ""
	}
	for _, t := range toks {
		switch t.kind {
		case tkName:
			if t.text != "True" && t.text != "False" && t.text != "None" {
				return ""
			}
		case tkString:
			if strings.ContainsAny(t.text[:strings.IndexAny(t.text, `"'`)+1], "fF") {
				return ""
			}
		case tkOp:
			switch t.text {
			case "(", ")", "[", "]", "{", "}", ",", ":", "-", "+":
			default:
				return ""
			}
		}
	}
	v := compact(toks)
	if v == "None" || v == "" {
		return ""
	}
	return v
}

// siteNames returns the names the sites replace, each once.
func siteNames(sites []patchSite) []string {
	var out []string
	for _, s := range sites {
		if !slices.Contains(out, s.Name) {
			out = append(out, s.Name)
		}
	}
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
// file replaced, and records those replacements as the test's Mocks.
func (m *module) stubbedChecks(def *stmt, tc *testscan.TestCase) {
	var requested []*stmt
	for _, p := range paramNames(def) {
		requested = append(requested, m.topDefs[p])
	}
	sites := append(patchSites(def), fixtureSites(m, requested)...)
	sites = append(sites, m.autouseSites()...)
	if len(sites) == 0 {
		return
	}
	patched := siteNames(sites)
	for i := range tc.Assertions {
		a := &tc.Assertions[i]
		if c := testscan.LastCallee(a.Subject); c != "" && slices.Contains(patched, c) {
			a.Strength = testscan.Trivial
		}
	}
	calls := localCalls(def.body)
	for _, s := range sites {
		s.Subject = slices.ContainsFunc(tc.Assertions, func(a testscan.Assertion) bool {
			if !testscan.ValueCheck(a.Kind) {
				return false
			}
			c := testscan.Callee(a.Subject)
			if l, ok := calls[a.Subject]; ok && l.line < a.Line {
				c = l.callee
			}
			return testscan.SameFunction(s.Target, c)
		})
		tc.Mocks = testscan.AddMock(tc.Mocks, s.Mock)
	}
}

// localCall is a local a body sets once, at its top level, to a call.
type localCall struct {
	callee string
	line   int
}

// localCalls returns the locals a body sets once (at any depth outside
// nested defs: `with patch(..): result = calc.total(items)`) to a call,
// with the function called.
func localCalls(body []*stmt) map[string]localCall {
	out := map[string]localCall{}
	count := map[string]int{}
	walk(body, func(s *stmt) bool {
		t := s.toks
		if s.header {
			return !s.isDef() && !s.isClass()
		}
		if len(t) < 3 || t[0].kind != tkName || !isOp(t[1], "=") {
			return true
		}
		count[t[0].text]++
		v := t[2:]
		if v[0].kind == tkName && v[0].text == "await" {
			v = v[1:]
		}
		if c := testscan.Callee(compact(v)); c != "" {
			out[t[0].text] = localCall{c, s.line}
		}
		return true
	})
	for n := range out {
		if count[n] != 1 {
			delete(out, n)
		}
	}
	return out
}

// fixtureSites returns what the fixtures among roots, and the fixtures
// they request in turn, replace.
func fixtureSites(m *module, roots []*stmt) []patchSite {
	var out []patchSite
	seen := map[*stmt]bool{}
	var from func(f *stmt)
	from = func(f *stmt) {
		if f == nil || seen[f] || !isFixture(f) {
			return
		}
		seen[f] = true
		out = append(out, patchSites(f)...)
		for _, p := range paramNames(f) {
			from(m.topDefs[p])
		}
	}
	for _, f := range roots {
		from(f)
	}
	return out
}

// autouseSites returns what the module's autouse fixtures (and the
// fixtures they request) replace, read once per module: for every test of
// the file, and in a conftest.py for every test of its directory.
func (m *module) autouseSites() []patchSite {
	if m.autouse == nil {
		var roots []*stmt
		for _, f := range m.topDefs {
			if isFixture(f) && autouse(f) {
				roots = append(roots, f)
			}
		}
		// In source order, whatever the map's.
		slices.SortFunc(roots, func(a, b *stmt) int { return a.line - b.line })
		m.autouse = fixtureSites(m, roots)
		if m.autouse == nil {
			m.autouse = []patchSite{}
		}
	}
	return m.autouse
}

// autousePatched returns the names autouseSites replace, sorted.
func (m *module) autousePatched() []string {
	names := siteNames(m.autouseSites())
	slices.Sort(names)
	return names
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
