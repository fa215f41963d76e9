package jsts

import (
	"slices"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// A check of a function the test file replaced checks the replacement's
// answer: `vi.mock('../src/calc.js', () => ({ parse: () => 42 }))` then
// `expect(parse('x')).toBe(42)` cannot fail, nor can a check of
// `calc.parse` after `vi.spyOn(calc, 'parse').mockReturnValue(42)`. Module
// mocks (vi.mock, jest.mock, their doMock and unstable_mockModule) apply
// to the whole file; a spy given an implementation, or a function
// assigned a vi.fn/jest.fn, applies to the test it is in, or to every test
// when it is outside them (a hook, the module's top level). A check of
// other code that calls the replacement (a dependency mocked) is untouched.

// stubbedChecks makes trivial the checks of tests whose subject calls a
// replaced function.
func stubbedChecks(t *tree, tests []testscan.TestCase) {
	if len(tests) == 0 {
		return
	}
	type stub struct {
		name string
		line int // 0: the whole file
	}
	var stubs []stub
	for i := 0; i+1 < len(t.toks); i++ {
		if i < 2 || t.kind(i) != tkIdent || !t.punct(i+1, "(") || !t.isMember(i) {
			continue // (a member with nothing before its dot: `.A(`)
		}
		obj := t.toks[i-2].Text
		if obj != "vi" && obj != "jest" {
			continue
		}
		open := i + 1
		close := int(t.match[open])
		if close <= open {
			continue
		}
		switch t.toks[i].Text {
		case "mock", "doMock", "unstable_mockModule":
			for _, k := range t.factoryKeys(open, close) {
				stubs = append(stubs, stub{k, 0})
			}
		case "spyOn":
			args := t.splitArgs(open, close)
			if len(args) < 2 || args[1][1]-args[1][0] != 1 || t.kind(args[1][0]) != tkString {
				continue
			}
			if !t.punct(close+1, ".") || t.kind(close+2) != tkIdent || !strings.HasPrefix(t.toks[close+2].Text, "mock") || t.toks[close+2].Text == "mockClear" || t.toks[close+2].Text == "mockReset" || t.toks[close+2].Text == "mockRestore" {
				continue // a spy that still calls the real function
			}
			stubs = append(stubs, stub{unquote(t.toks[args[1][0]].Text), t.toks[i].Line})
		case "fn":
			// obj.name = vi.fn(...)
			if k := i - 3; k >= 1 && t.punct(k, "=") && t.kind(k-1) == tkIdent && t.isMember(k-1) {
				stubs = append(stubs, stub{t.toks[k-1].Text, t.toks[i].Line})
			}
		}
	}
	if len(stubs) == 0 {
		return
	}
	// A stub outside every test (a hook, the top level) applies to all.
	everywhere := make([]bool, len(stubs))
	for k, s := range stubs {
		everywhere[k] = s.line == 0 || !slices.ContainsFunc(tests, func(o testscan.TestCase) bool { return s.line >= o.Line && s.line <= o.EndLine })
	}
	for ti := range tests {
		tc := &tests[ti]
		var names []string
		for k, s := range stubs {
			if everywhere[k] || s.line >= tc.Line && s.line <= tc.EndLine {
				names = append(names, s.name)
			}
		}
		for i := range tc.Assertions {
			a := &tc.Assertions[i]
			if c := testscan.LastCallee(a.Subject); c != "" && slices.Contains(names, c) {
				a.Strength = testscan.Trivial
			}
		}
	}
}

// factoryKeys returns the keys of the object a module mock's factory (its
// second argument, between open and close) returns: `() => ({ parse: ..,
// width() {..}, total })` or `() => { return { .. } }`.
func (t *tree) factoryKeys(open, close int) []string {
	args := t.splitArgs(open, close)
	if len(args) < 2 {
		return nil
	}
	from, to := args[1][0], args[1][1]
	obj := -1
	for k := from; k < to; k++ {
		if t.punct(k, "{") && (t.punct(k-1, "(") || t.ident(k-1, "return")) {
			obj = k
			break
		}
	}
	if obj < 0 {
		return nil
	}
	end := int(t.match[obj])
	if end <= obj {
		return nil
	}
	var keys []string
	for k := obj + 1; k < end; k++ {
		if int(t.parent[k]) != obj {
			continue
		}
		kind := t.kind(k)
		if kind != tkIdent && kind != tkString {
			continue
		}
		if t.punct(k-1, "{") || t.punct(k-1, ",") || t.ident(k-1, "async") {
			if t.punct(k+1, ":") || t.punct(k+1, "(") || t.punct(k+1, ",") || t.punct(k+1, "}") {
				keys = append(keys, unquote(t.toks[k].Text))
			}
		}
	}
	return keys
}

// unquote strips a string token's quotes.
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"' || s[0] == '`') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// throughLocals reads a check whose expected value is a local the test
// sets once, before the check, to a call of the function the check's
// subject calls (`const expected = parse('x'); expect(parse('x'))
// .toBe(expected)`): the expected value is that call. Other checks keep
// the names as written.
func throughLocals(t *tree, tests []testscan.TestCase) {
	type local struct {
		from, to int // the value's tokens, normalized only when a check names it
		line     int
		n        int
	}
	// The declarations of the file, read once; each test takes those
	// within its lines.
	type decl struct {
		name string
		local
	}
	var decls []decl
	for i := 0; i+3 < len(t.toks); i++ {
		if !(t.ident(i, "const") || t.ident(i, "let") || t.ident(i, "var")) || t.kind(i+1) != tkIdent || !t.punct(i+2, "=") {
			continue
		}
		from := i + 3
		to := from
		for to < len(t.toks) && t.parent[to] == t.parent[i] && !t.punct(to, ";") && t.toks[to].Line == t.toks[from].Line {
			if m := int(t.match[to]); m > to && (t.punct(to, "(") || t.punct(to, "[") || t.punct(to, "{")) {
				to = m
			}
			to++
		}
		decls = append(decls, decl{t.toks[i+1].Text, local{from, to, t.toks[i].Line, 1}})
	}
	if len(decls) == 0 {
		return
	}
	for ti := range tests {
		tc := &tests[ti]
		locals := map[string]*local{}
		for _, d := range decls {
			if d.line < tc.Line || d.line > tc.EndLine {
				continue
			}
			if l := locals[d.name]; l != nil {
				l.n++
				continue
			}
			l := d.local
			locals[d.name] = &l
		}
		for i := range tc.Assertions {
			a := &tc.Assertions[i]
			l := locals[a.Expected]
			if l == nil || l.n != 1 || l.line >= a.Line {
				continue
			}
			if c := testscan.LastCallee(a.Subject); c != "" {
				if v := t.norm(l.from, l.to); testscan.LastCallee(v) == c {
					a.Expected = v
				}
			}
		}
	}
}
