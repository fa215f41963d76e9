package jsts

import (
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// link is one ".name" or ".name(args)" of an assertion chain.
type link struct {
	name string
	tok  int
	call bool
	open int
	args [][2]int
}

const (
	maxChain       = 16
	maxSubjectScan = 256 // tokens walked back to find the start of a subject
)

// chain reads the member chain starting at k (".a.b(x).c").
func (t *tree) chain(k, limit int) []link {
	var links []link
	for len(links) < maxChain && k+1 < limit {
		if !(t.punct(k, ".") || t.punct(k, "?.")) || t.kind(k+1) != tkIdent {
			break
		}
		l := link{name: t.toks[k+1].Text, tok: k + 1}
		k += 2
		if t.punct(k, "(") && t.matched(k, limit) {
			l.call, l.open = true, k
			l.args = t.splitArgs(k, int(t.match[k]))
			k = int(t.match[k]) + 1
		}
		links = append(links, l)
	}
	return links
}

// assertionAt recognizes the assertions that start at identifier j: expect(...)
// chains, x.should and should(x) chains, assert(...) and assert.*(...), the t.*
// assertions of the test context param, sinon.assert.* and the .expect(...)
// calls of supertest request chains.
func (t *tree) assertionAt(j, limit int, param string) []testscan.Assertion {
	tk := &t.toks[j]
	member := t.isMember(j)
	viaChai := member && t.ident(j-2, "chai")
	switch {
	case tk.Text == "expect" && (!member || viaChai):
		return t.expectAt(j, limit)
	case tk.Text == "should" && member:
		return t.shouldAt(j, limit)
	case tk.Text == "should" && !member && t.punct(j+1, "."):
		return t.staticShouldAt(j, limit)
	case tk.Text == "should" && !member && t.punct(j+1, "(") && !t.ident(j-1, "function"):
		return t.shouldCallAt(j, limit)
	case tk.Text == "assert" && (!member || viaChai):
		return t.assertAt(j, j, limit)
	case param != "" && tk.Text == param && !member && t.punct(j+1, ".") && t.kind(j+2) == tkIdent:
		if t.ident(j+2, "assert") {
			return t.assertAt(j, j+2, limit)
		}
		return t.ctxAssertAt(j, limit)
	case tk.Text == "throw" && !member && j+1 < limit && !t.punct(j+1, ";") && !t.punct(j+1, "}") && t.failingThrow(j):
		// A throw in a test fails it as assert.fail does: the rethrow of an
		// unexpected error, throw new Error("should not be called") in a
		// callback that must not run.
		return []testscan.Assertion{{Line: tk.Line, Kind: "throw", Strength: testscan.Medium}}
	case tk.Text == "sinon" && !member && t.punct(j+1, ".") && t.ident(j+2, "assert"):
		return t.sinonAssertAt(j, limit)
	case !member && (t.punct(j+1, "(") || t.punct(j+1, ".")):
		return t.supertestAt(j, limit)
	}
	return nil
}

// failingThrow reports a throw at j that fails the test the way a failed
// check does: one in a catch block (the rethrow of an error the test did
// not expect), or one a function body runs unconditionally (a callback
// that must never be called). A throw under an if elsewhere is not read as
// a check: `if (false) throw ...` checks nothing.
func (t *tree) failingThrow(j int) bool {
	for q := int(t.parent[j]); q >= 0; q = int(t.parent[q]) {
		if t.punct(q, "{") && t.blockAfter(q, "catch") {
			return true
		}
	}
	if t.blockAfter(j, "if") || t.ident(j-1, "else") {
		return false // if (c) throw x, without braces
	}
	p := int(t.parent[j])
	if p < 0 || !t.punct(p, "{") {
		return false
	}
	if t.punct(p-1, "=>") {
		return true
	}
	if !t.punct(p-1, ")") || t.match[p-1] < 0 {
		return false
	}
	open := int(t.match[p-1])
	if t.ident(open-1, "function") {
		return true
	}
	// A method of an object literal: request() { throw ... } is the
	// request: () => { throw ... } it stands for.
	name := open - 1
	if name < 1 || t.kind(name) != tkIdent {
		return false
	}
	switch t.toks[name].Text {
	case "if", "for", "while", "switch", "catch", "with":
		return false
	}
	if t.punct(name-1, "{") {
		// A class body's first method is no callback of the test: a
		// class that stands in for a dependency throws by design.
		for q := name - 2; q >= 0 && q >= name-5; q-- {
			if t.ident(q, "class") {
				return false
			}
		}
		return true
	}
	return t.punct(name-1, ",") || t.ident(name-1, "async") || t.punct(name-1, "*")
}

// blockAfter reports whether the token at k follows `kw (...)` or `kw`:
// the block of a catch, the statement of an if.
func (t *tree) blockAfter(k int, kw string) bool {
	if t.ident(k-1, kw) {
		return true
	}
	if !t.punct(k-1, ")") || t.match[k-1] < 0 {
		return false
	}
	return t.ident(int(t.match[k-1])-1, kw)
}

// argText normalizes one argument (or "" when absent).
func (t *tree) argText(args [][2]int, k int) string {
	if k >= len(args) {
		return ""
	}
	return t.norm(args[k][0], args[k][1])
}

func (t *tree) argConst(args [][2]int, k int) bool {
	return k < len(args) && t.isConstant(args[k][0], args[k][1])
}

// trivial applies the Trivial rule: a constant subject checked against nothing
// or against another constant cannot depend on the code under test.
func trivial(a *testscan.Assertion, subjConst, expConst bool) {
	if a.Subject != "" && subjConst && (a.Expected == "" || expConst) {
		a.Strength = testscan.Trivial
	}
}

func (t *tree) expectAt(j, limit int) []testscan.Assertion {
	k := j + 1
	line := t.toks[j].Line
	if t.punct(k, ".") && t.kind(k+1) == tkIdent {
		switch name := t.toks[k+1].Text; name {
		case "assertions", "hasAssertions":
			if !t.punct(k+2, "(") || !t.matched(k+2, limit) {
				return nil
			}
			args := t.splitArgs(k+2, int(t.match[k+2]))
			return []testscan.Assertion{{Line: line, Kind: "expect." + name, Strength: testscan.Medium, Expected: t.argText(args, 0)}}
		case "assert":
			// vitest's expect.assert is chai's assert: a truthiness check
			// that also narrows the type.
			if !t.punct(k+2, "(") || !t.matched(k+2, limit) {
				return nil
			}
			args := t.splitArgs(k+2, int(t.match[k+2]))
			if len(args) == 0 {
				return nil
			}
			a := testscan.Assertion{Line: line, Kind: "expect.assert", Strength: testscan.Weak, Subject: t.argText(args, 0)}
			trivial(&a, t.argConst(args, 0), true)
			return []testscan.Assertion{a}
		case "soft", "poll":
			k += 2
		default:
			return nil
		}
	}
	if !t.punct(k, "(") || !t.matched(k, limit) {
		return nil
	}
	close := int(t.match[k])
	args := t.splitArgs(k, close)
	subjFrom, subjTo := k+1, k+1
	if len(args) > 0 {
		subjFrom, subjTo = args[0][0], args[0][1]
	}
	links := t.chain(close+1, limit)
	negated := false
	for _, l := range links {
		if l.name == "not" {
			negated = true
			continue
		}
		if !isJestMatcher(l.name) || !l.call {
			continue
		}
		a := testscan.Assertion{Line: line, Kind: l.name, Negated: negated, Subject: t.norm(subjFrom, subjTo)}
		a.Strength = jestStrength(l.name, len(l.args))
		expConst := true
		if l.name == "toBeCloseTo" {
			a.Expected, a.Tolerance = t.argText(l.args, 0), t.argText(l.args, 1)
			expConst = t.argConst(l.args, 0)
		} else if len(l.args) > 0 {
			close := int(t.match[l.open])
			a.Expected = t.norm(l.open+1, close)
			expConst = t.isConstant(l.open+1, close)
		}
		trivial(&a, t.isConstant(subjFrom, subjTo), expConst)
		return []testscan.Assertion{a}
	}
	return t.chaiChain(line, subjFrom, subjTo, links)
}

// isJestMatcher reports whether a name has the shape of a jest/vitest matcher
// (toBe, toEqual, custom toX matchers) or an old alias (lastCalledWith).
func isJestMatcher(name string) bool {
	if len(name) > 2 && strings.HasPrefix(name, "to") && name[2] >= 'A' && name[2] <= 'Z' {
		return true
	}
	switch name {
	case "lastCalledWith", "nthCalledWith", "lastReturnedWith", "nthReturnedWith":
		return true
	}
	return false
}

var jestStrong = map[string]bool{
	"toEqual": true, "toStrictEqual": true, "toBe": true, "toHaveBeenCalledWith": true,
	"toBeCalledWith": true, "toHaveBeenLastCalledWith": true, "lastCalledWith": true,
	"toHaveBeenNthCalledWith": true, "nthCalledWith": true, "toMatchSnapshot": true,
	"toMatchInlineSnapshot": true, "toMatchFileSnapshot": true,
	"toThrowErrorMatchingSnapshot": true, "toThrowErrorMatchingInlineSnapshot": true,
	"toHaveReturnedWith": true, "toReturnWith": true, "toHaveLastReturnedWith": true,
	"lastReturnedWith": true, "toHaveNthReturnedWith": true, "nthReturnedWith": true,
	"toBeCloseTo": true, "toHaveBeenCalledExactlyOnceWith": true, "toHaveBeenCalledOnceWith": true,
	"toHaveResolvedWith": true,
}

var jestWeak = map[string]bool{
	"toBeDefined": true, "toBeTruthy": true, "toBeFalsy": true, "toHaveBeenCalled": true,
	"toBeCalled": true, "toHaveReturned": true, "toReturn": true, "toBeInTheDocument": true,
	"toBeVisible": true, "toBeOK": true, "toHaveResolved": true,
}

// jestStrength ranks a jest/vitest matcher; unknown and custom matchers are
// Medium.
func jestStrength(name string, nargs int) testscan.Strength {
	switch name {
	case "toThrow", "toThrowError", "toHaveProperty":
		min := 1
		if name == "toHaveProperty" {
			min = 2
		}
		if nargs >= min {
			return testscan.Strong
		}
		return testscan.Medium
	}
	if jestStrong[name] {
		return testscan.Strong
	}
	if jestWeak[name] {
		return testscan.Weak
	}
	return testscan.Medium
}

// shouldAt handles value.should.<chain>: the subject is the expression before
// ".should".
func (t *tree) shouldAt(j, limit int) []testscan.Assertion {
	lo := int(t.parent[j]) + 1
	start := t.subjectStart(j-2, lo)
	if start > j-2 {
		return nil
	}
	links := t.chain(j+1, limit)
	return t.chaiChain(t.toks[j].Line, start, j-1, links)
}

// subjectStart walks back from end over one member/call expression and returns
// its first token.
func (t *tree) subjectStart(end, lo int) int {
	lo = max(lo, end-maxSubjectScan)
	k := end
	for k >= lo {
		if c := t.closer(k); c == '(' || c == '[' {
			o := int(t.match[k])
			if o < lo {
				return k + 1
			}
			k = o - 1
			if k >= lo && (t.kind(k) == tkIdent && !exprKeywords[t.toks[k].Text] || t.closer(k) == '(' || t.closer(k) == '[') {
				continue
			}
			return o
		}
		switch t.kind(k) {
		case tkIdent, tkNumber, tkString, tkTemplate, tkRegex:
			if t.kind(k) == tkIdent && exprKeywords[t.toks[k].Text] {
				return k + 1
			}
			start := k
			k--
			if t.punct(k, ".") || t.punct(k, "?.") {
				k--
				continue
			}
			return start
		}
		return k + 1
	}
	return lo
}

// shouldCallAt handles should.js's should(x).<chain>, which checks x like
// x.should.<chain> does (and also works on null and undefined).
func (t *tree) shouldCallAt(j, limit int) []testscan.Assertion {
	k := j + 1
	if !t.matched(k, limit) {
		return nil
	}
	close := int(t.match[k])
	args := t.splitArgs(k, close)
	if len(args) == 0 {
		return nil
	}
	return t.chaiChain(t.toks[j].Line, args[0][0], args[0][1], t.chain(close+1, limit))
}

// staticShouldAt handles should.exist(x), should.not.exist(x), should.equal(a, b).
func (t *tree) staticShouldAt(j, limit int) []testscan.Assertion {
	links := t.chain(j+1, limit)
	negated := false
	for _, l := range links {
		if l.name == "not" {
			negated = true
			continue
		}
		if !l.call {
			return nil
		}
		a := testscan.Assertion{Line: t.toks[j].Line, Kind: "should." + l.name, Negated: negated,
			Subject: t.argText(l.args, 0), Expected: t.argText(l.args, 1)}
		a.Strength = chaiStrength(l.name, negated, len(l.args))
		if l.name == "exist" {
			a.Expected = ""
		}
		trivial(&a, t.argConst(l.args, 0), a.Expected == "" || t.argConst(l.args, 1))
		return []testscan.Assertion{a}
	}
	return nil
}
