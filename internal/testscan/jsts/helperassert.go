package jsts

import (
	"sort"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

const (
	// maxHelperAssertions bounds the helper assertions recorded for one file.
	maxHelperAssertions = 10000
	// maxExprBody bounds the tokens of an arrow function's expression body.
	maxExprBody = 4096
)

// ctxParam is the parameter name that helpers conventionally give the test
// context they receive (ava macros, node:test and tap helpers): t.is(a, b)
// inside `function check(t, x)` is an assertion. Other parameter names are not
// trusted outside a test, where `req.is('json')` is ordinary code.
const ctxParam = "t"

// span is a half-open token range.
type span struct{ from, to int }

// recordTest remembers the tokens of a test call so that helper assertions
// can leave them out.
func (s *scanner) recordTest(from, to int) {
	if to <= from {
		to = from + 1
	}
	if old, ok := s.testSpans[from]; !ok || old < to {
		s.testSpans[from] = to
	}
}

// helperAssertions returns the assertions outside test case calls, in source
// order: those in helper functions, hooks, describe bodies and at the top level
// of the file. Assertions in a test body, including helpers defined inside it,
// belong to that test.
func (s *scanner) helperAssertions() []testscan.Assertion {
	t := s.t
	spans := make([]span, 0, len(s.testSpans))
	for from, to := range s.testSpans {
		spans = append(spans, span{from, to})
	}
	sort.Slice(spans, func(a, b int) bool { return spans[a].from < spans[b].from })
	merged := spans[:0]
	for _, sp := range spans {
		if n := len(merged); n > 0 && sp.from < merged[n-1].to {
			merged[n-1].to = max(merged[n-1].to, sp.to)
			continue
		}
		merged = append(merged, sp)
	}
	var inCtx []int32
	var out []testscan.Assertion
	names := map[int32]string{}
	helperOf := map[int32]string{} // helperName by the bracket around a call
	seen := map[string]bool{}
	k := 0
	for j := 0; j < len(t.toks) && len(out) < maxHelperAssertions; j++ {
		if k < len(merged) && j >= merged[k].from {
			j = merged[k].to - 1
			k++
			continue
		}
		if t.toks[j].Kind != tkIdent {
			continue
		}
		limit := len(t.toks)
		if k < len(merged) {
			limit = merged[k].from
		}
		param := ""
		if t.toks[j].Text == ctxParam {
			if inCtx == nil {
				inCtx = t.paramCover(ctxParam)
			}
			if inCtx[j] > 0 {
				param = ctxParam
			}
		}
		from := len(out)
		out = append(out, t.assertionAt(j, limit, param)...)
		if len(out) > from {
			t.markLinks(j, limit)
		}
		s.addHelperCall(j, param, names, helperOf)
		if len(out) > from {
			name := t.helperName(j, names)
			for i := from; i < len(out); i++ {
				out[i].Helper = name
			}
		}
	}
	if len(out) > maxHelperAssertions {
		out = out[:maxHelperAssertions]
	}
	sortByLine(out)
	// The named functions outside test calls, whether or not they assert.
	k = 0
	for j := 0; j < len(t.toks); j++ {
		if k < len(merged) && j >= merged[k].from {
			j = merged[k].to - 1
			k++
			continue
		}
		if t.punct(j, "{") {
			if name := t.functionName(j, names); name != "" && !seen[name] {
				seen[name] = true
				s.helperNames = append(s.helperNames, name)
			}
		}
	}
	return out
}

// helperName names the innermost named function around token j (see
// functionName); callbacks without a name are looked through, so a check in
// `arr.forEach(v => expect(v)...)` inside `function check(arr)` is check's.
// "" when there is none: describe bodies, hooks, the top level.
func (t *tree) helperName(j int, memo map[int32]string) string {
	depth := 0
	for p := t.parent[j]; p >= 0 && depth < maxNameDepth; p = t.parent[p] {
		depth++
		if t.punct(int(p), "{") {
			if name := t.functionName(int(p), memo); name != "" {
				return name
			}
		}
	}
	return ""
}

// functionName returns the name of the function whose body opens at the
// brace open: `function f(...) {`, a method `f(...) {`, `const f = (...) => {`
// or `const f = function (...) {`, with TypeScript return types; "" for
// anything else (a block, an anonymous callback, a control statement).
func (t *tree) functionName(open int, memo map[int32]string) string {
	if name, ok := memo[int32(open)]; ok {
		return name
	}
	name := t.functionNameAt(open)
	memo[int32(open)] = name
	return name
}

func (t *tree) functionNameAt(open int) string {
	// The end of what precedes the body: ")" of the parameters, "=>", or a
	// TypeScript return type after "):".
	end := open - 1
	if !t.punct(end, ")") && !t.punct(end, "=>") {
		found := false
		for k := end; k >= 0 && k >= open-16; k-- {
			if t.punct(k, ")") && t.punct(k+1, ":") && t.parent[k] == t.parent[open] {
				end, found = k, true
				break
			}
		}
		if !found {
			return ""
		}
	}
	arrow := t.punct(end, "=>")
	if arrow {
		end--
		if t.punct(end-1, ":") || !t.punct(end, ")") && t.kind(end) != tkIdent {
			// `(...): T =>`: find the parameters' ")" before the type.
			for k := end; k >= 0 && k >= open-16; k-- {
				if t.punct(k, ")") && t.punct(k+1, ":") && t.parent[k] == t.parent[open] {
					end = k
					break
				}
			}
		}
	}
	// first is the first token of the parameters.
	first := end
	if t.punct(end, ")") {
		o := int(t.match[end])
		if o < 0 || o >= end {
			return ""
		}
		first = o
	} else if !arrow || t.kind(end) != tkIdent {
		return ""
	}
	before := first - 1
	if t.ident(before, "async") {
		before--
	}
	switch {
	case !arrow && t.kind(before) == tkIdent && !jsKeywords[t.toks[before].Text]:
		return t.toks[before].Text // function f(...) {, or a method f(...) {
	case !arrow && t.ident(before, "function"):
		before-- // an anonymous function expression: named by what it is assigned to
	case !arrow:
		return ""
	}
	if t.ident(before, "async") {
		before--
	}
	if t.punct(before, "=") && t.kind(before-1) == tkIdent && !t.isMember(before-1) && !jsKeywords[t.toks[before-1].Text] {
		return t.toks[before-1].Text
	}
	return ""
}

// maxNameDepth bounds the brackets helperName climbs, so that deeply nested
// input stays linear.
const maxNameDepth = 64

// jsKeywords are the words that can stand before "(" or "=" without naming a
// function.
var jsKeywords = map[string]bool{
	"if": true, "for": true, "while": true, "switch": true, "catch": true, "with": true,
	"function": true, "return": true, "typeof": true, "await": true, "yield": true,
	"new": true, "do": true, "else": true, "in": true, "of": true, "void": true, "delete": true,
}

// sortByLine puts assertions in source order. Assertions are found at the
// start of their expression, so a chain's later links (supertest .expect
// calls) can come before checks nested in an earlier link's callback.
func sortByLine(as []testscan.Assertion) {
	sort.SliceStable(as, func(a, b int) bool { return as[a].Line < as[b].Line })
}

// paramCover counts, for each token, the functions around it whose first
// parameter is name: arrow functions, function expressions and declarations,
// and methods.
func (t *tree) paramCover(name string) []int32 {
	n := len(t.toks)
	diff := make([]int32, n+1)
	mark := func(from, to int) {
		if from < 0 || to <= from || to > n {
			return
		}
		diff[from]++
		diff[to]--
	}
	// Expression bodies are found by walking to the end of the statement; the
	// walk is bounded per arrow and in total so chains of arrows stay linear.
	budget := workFactor*n + workSlack
	for i := range t.toks {
		switch {
		case t.punct(i, "=>"):
			if !(t.ident(i-1, name) && !t.isMember(i-1) || t.punct(i-1, ")") && t.firstParam(i-1) == name) {
				continue
			}
			if t.punct(i+1, "{") && t.matched(i+1, n) {
				mark(i+1, int(t.match[i+1])+1)
			} else if budget > 0 {
				end := t.statementEnd(i+1, min(n, i+1+maxExprBody))
				budget -= end - i
				mark(i+1, end)
			}
		case t.punct(i, "{") && t.punct(i-1, ")") && t.matched(i, n):
			o := int(t.match[i-1])
			if o < 1 || t.kind(o-1) != tkIdent {
				continue
			}
			switch t.toks[o-1].Text {
			case "if", "for", "while", "switch", "catch", "with":
				continue
			}
			if t.firstParam(i-1) == name {
				mark(i, int(t.match[i])+1)
			}
		}
	}
	cover := make([]int32, n)
	var c int32
	for i := range n {
		c += diff[i]
		cover[i] = c
	}
	return cover
}

// firstParam returns the name of the first parameter in the list closed at
// close, skipping a TypeScript "this" parameter; "" when there is none.
func (t *tree) firstParam(close int) string {
	o := int(t.match[close])
	if o < 0 || o >= close {
		return ""
	}
	for _, a := range t.splitArgs(o, close) {
		if t.ident(a[0], "this") && t.punct(a[0]+1, ":") {
			continue
		}
		if t.kind(a[0]) == tkIdent && (a[1] == a[0]+1 || t.punct(a[0]+1, ":") || t.punct(a[0]+1, "=")) {
			return t.toks[a[0]].Text
		}
		return ""
	}
	return ""
}
