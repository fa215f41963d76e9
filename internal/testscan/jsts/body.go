package jsts

import (
	"slices"
	"sort"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/clex"
)

// maxAssertions bounds the assertions recorded for one test.
const maxAssertions = 1000

// bodyFacts is what the body of one test callback holds.
type bodyFacts struct {
	assertions []testscan.Assertion
	skip       *testscan.Skip
	commented  int
	tokens     int
	literals   []string
	norm       []string // normalized tokens of the whole callback, for the fingerprint
	calls      []testscan.Call
}

// analyzeBody collects assertions, skip calls, early returns, literals and
// commented-out assertions of a test callback.
func (s *scanner) analyzeBody(fn fnInfo) bodyFacts {
	t := s.t
	var f bodyFacts
	f.norm = t.normTokens(fn.from, fn.to)
	f.tokens = t.normCount(fn.bodyFrom, fn.bodyTo)
	if fn.ref {
		f.calls = t.refCall(fn, nil)
		return f
	}
	top := fn.bodyOpen
	if top < 0 && fn.bodyFrom < len(t.toks) {
		top = int(t.parent[fn.bodyFrom])
	}
	firstAssert, skipAt, returnAt := -1, -1, -1
	unused := t.unusedFuncs(fn.bodyFrom, fn.bodyTo)
	for j := fn.bodyFrom; j < fn.bodyTo; j++ {
		switch t.toks[j].Kind {
		case tkString, tkTemplate, tkNumber:
			if len(f.literals) < maxLiterals {
				if v, next, ok := t.foldStrings(j, fn.bodyTo); ok {
					f.literals = append(f.literals, v)
					j = next - 1
					continue
				}
				f.literals = append(f.literals, t.normTok(j))
			}
		case tkIdent:
			as := t.assertionAt(j, fn.bodyTo, fn.param)
			if len(as) > 0 && testscan.InSpan(unused, j) {
				as = nil // in a local function nothing calls: it never runs
			}
			if len(as) > 0 {
				t.markLinks(j, fn.bodyTo)
			}
			f.calls = t.addCall(f.calls, j, fn.param)
			if len(f.assertions) >= maxAssertions {
				break
			}
			if len(as) > 0 {
				floating := !t.ident(j-1, "await") && !t.ident(j-1, "return") && !t.punct(j-1, "=>")
				arms := t.armsAt(j, fn.bodyFrom)
				for i := range as {
					as[i].Floating = floating && failureCheck(as[i].Kind)
					as[i].Arms = arms
				}
				f.assertions = append(f.assertions, as...)
				if firstAssert < 0 {
					firstAssert = j
				}
			}
			if f.skip == nil {
				if sk := t.skipCallAt(j, fn, top); sk != nil {
					f.skip, skipAt = sk, j
				}
			}
			if returnAt < 0 && t.toks[j].Text == "return" && !t.isMember(j) && t.guardLevel(j, top) {
				returnAt = j
			}
		}
	}
	t.markRejects(fn, f.assertions)
	if returnAt >= 0 && firstAssert >= t.returnEnd(returnAt, fn.bodyTo) && (skipAt < 0 || returnAt < skipAt) {
		f.skip = &testscan.Skip{Kind: testscan.SkipEarlyReturn, Line: t.toks[returnAt].Line}
	}
	sortByLine(f.assertions)
	f.assertions = t.deadAfterReturn(fn, top, f.assertions)
	f.commented = s.commentedAssertions(fn)
	return f
}

// deadAfterReturn drops the checks after the first return of the body's
// top level that always runs (`return;`, `if (true) return;`, `if (true) {
// return; }`) when a check comes before it: they never run. (One before
// every check makes the test an early-return skip instead.) asserts are in
// line order.
func (t *tree) deadAfterReturn(fn fnInfo, top int, asserts []testscan.Assertion) []testscan.Assertion {
	if len(asserts) == 0 || top < 0 {
		return asserts
	}
	// constTrue reports a parenthesized condition (o, c) that is `true`.
	constTrue := func(o, c int) bool { return c == o+2 && t.ident(o+1, "true") }
	for j := fn.bodyFrom; j < fn.bodyTo; j++ {
		if !t.ident(j, "return") || t.isMember(j) {
			continue
		}
		always := false
		switch p := int(t.parent[j]); {
		case p == top && t.punct(j-1, ")"):
			o := int(t.match[j-1]) // if (true) return;
			always = o > 0 && t.ident(o-1, "if") && constTrue(o, j-1)
		case p == top:
			always = !t.ident(j-1, "else")
		case p >= 0 && t.punct(p, "{") && int(t.parent[p]) == top && t.punct(p-1, ")"):
			o := int(t.match[p-1]) // if (true) { return; }
			always = o > 0 && t.ident(o-1, "if") && constTrue(o, p-1)
		}
		if !always {
			continue
		}
		if asserts[0].Line >= t.toks[j].Line {
			return asserts
		}
		// What the return statement itself holds runs (`return
		// request(app).get("/").expect(200)`): the cut is after its end.
		end := t.returnEnd(j, fn.bodyTo)
		if end >= len(t.toks) {
			return asserts
		}
		line := t.toks[end].Line
		if end >= fn.bodyTo || !t.punct(end, ";") {
			line-- // it ends where the next statement starts
		}
		return slices.DeleteFunc(asserts, func(a testscan.Assertion) bool { return a.Line > line })
	}
	return asserts
}

// guardLevel reports whether token j sits at the top level of the body whose
// innermost bracket is top, or directly in the block of a top-level if.
func (t *tree) guardLevel(j, top int) bool {
	p := int(t.parent[j])
	if p == top {
		return true
	}
	if p < 0 || !t.punct(p, "{") || int(t.parent[p]) != top || !t.punct(p-1, ")") {
		return false
	}
	o := int(t.match[p-1])
	return o > 0 && t.ident(o-1, "if")
}

// returnEnd returns the end of the return statement at r. A line break right
// after "return" ends it (ASI's restricted production).
func (t *tree) returnEnd(r, limit int) int {
	if r+1 < limit && t.toks[r+1].Line > t.toks[r].Line {
		return r + 1
	}
	return t.statementEnd(r+1, limit)
}

// statementEnd returns the index of the token that ends the statement running
// through k: a ';', the enclosing closer, or (ASI) a token on a new line after a
// complete operand.
func (t *tree) statementEnd(k, limit int) int {
	for k < limit {
		if t.punct(k, ";") || clex.Closer(t.toks[k].Token, tkPunct) {
			return k
		}
		if k > 0 && t.toks[k].Line > t.toks[k-1].Line && endsOperand(&t.toks[k-1]) && !continuesLine(&t.toks[k]) {
			return k
		}
		k = t.skip(k, limit)
	}
	return limit
}

// endsOperand reports whether a token can end an expression.
func endsOperand(tk *token) bool {
	switch tk.Kind {
	case tkPunct:
		return clex.Closer(tk.Token, tkPunct)
	case tkIdent:
		return !exprKeywords[tk.Text]
	}
	return true
}

// continuesLine reports whether a token at a line start continues the previous
// line's expression (a leading operator or member access).
func continuesLine(tk *token) bool {
	if tk.Kind != tkPunct {
		return false
	}
	switch tk.Text {
	case "(", "[", "{", "!", "~", "++", "--", "...", "}", ")", "]":
		return false
	}
	return true
}

// conditional reports whether the statement at j runs only under a condition:
// it is nested below the body's top level, or follows if (...), else, &&, ||,
// ?, : or ??.
func (t *tree) conditional(j, top int) bool {
	if int(t.parent[j]) != top {
		return true
	}
	if j == 0 {
		return false
	}
	prev := &t.toks[j-1]
	if t.ident(j-1, "await") && j >= 2 {
		prev = &t.toks[j-2]
		j--
	}
	switch {
	case prev.Kind == tkIdent && prev.Text == "else":
		return true
	case prev.Kind == tkPunct:
		switch prev.Text {
		case "&&", "||", "??", "?", ":", "=>":
			return true
		case ")":
			o := int(t.match[j-1])
			return o > 0 && (t.ident(o-1, "if") || t.ident(o-1, "while") || t.ident(o-1, "for"))
		}
	}
	return false
}

// skipCallAt recognizes a call that skips the running test: this.skip(),
// t.skip()/t.todo() on the test context, a destructured skip(), jasmine
// pending(), and playwright test.skip()/test.fixme() inside a body.
func (t *tree) skipCallAt(j int, fn fnInfo, top int) *testscan.Skip {
	tk := &t.toks[j]
	if t.isMember(j) {
		return nil
	}
	kind := testscan.SkipCall
	var open int
	playwright := false
	switch {
	case (tk.Text == "this" || tk.Text == fn.param && fn.param != "") && t.punct(j+1, ".") &&
		(t.ident(j+2, "skip") || t.ident(j+2, "todo")) && t.punct(j+3, "("):
		if t.ident(j+2, "todo") {
			kind = testscan.SkipTodo
		}
		open = j + 3
	case tk.Text == "test" && t.punct(j+1, ".") && (t.ident(j+2, "skip") || t.ident(j+2, "fixme")) && t.punct(j+3, "("):
		open, playwright = j+3, true
	case (tk.Text == "pending" || fn.destructured["skip"] && tk.Text == "skip") && t.punct(j+1, "("):
		if t.ident(j-1, "function") {
			return nil
		}
		open = j + 1
	default:
		return nil
	}
	close := t.closeOf(open, fn.bodyTo)
	args := t.splitArgs(open, close)
	sk := &testscan.Skip{Kind: kind, Line: tk.Line}
	if playwright && len(args) > 0 {
		if !(args[0][1] == args[0][0]+1 && t.ident(args[0][0], "true")) {
			sk.Kind = testscan.SkipConditional
		}
		args = args[1:]
	}
	if len(args) > 0 && (t.kind(args[0][0]) == tkString || t.kind(args[0][0]) == tkTemplate) {
		sk.Reason = t.toks[args[0][0]].val
	}
	if sk.Kind == testscan.SkipCall && t.conditional(j, top) {
		sk.Kind = testscan.SkipConditional
	}
	return sk
}

// commentedAssertions counts the comments inside a callback's body whose text is
// an assertion.
func (s *scanner) commentedAssertions(fn fnInfo) int {
	t := s.t
	if fn.bodyFrom >= len(t.toks) || fn.bodyFrom >= fn.bodyTo && fn.bodyOpen < 0 {
		return 0
	}
	from := int(t.toks[fn.bodyFrom].Off)
	if fn.bodyOpen >= 0 {
		from = t.toks[fn.bodyOpen].endOff()
	}
	to := len(t.src)
	if fn.bodyTo < len(t.toks) {
		to = int(t.toks[fn.bodyTo].Off)
	}
	k := sort.Search(len(t.comments), func(i int) bool { return t.comments[i].off >= from })
	n := 0
	for ; k < len(t.comments) && t.comments[k].off < to; k++ {
		ok, seen := s.commentAssert[k]
		if !seen {
			ok = isAssertionText(commentBody(t.comments[k].text))
			s.commentAssert[k] = ok
		}
		if ok {
			n++
		}
	}
	return n
}

// commentBody strips comment markers and leading "*" of block comment lines.
func commentBody(text string) string {
	switch {
	case strings.HasPrefix(text, "//"):
		return strings.TrimSpace(text[2:])
	case strings.HasPrefix(text, "/*"):
		text = strings.TrimSuffix(text[2:], "*/")
		lines := strings.Split(text, "\n")
		for k, l := range lines {
			lines[k] = strings.TrimLeft(strings.TrimSpace(l), "*")
		}
		return strings.TrimSpace(strings.Join(lines, "\n"))
	case strings.HasPrefix(text, "#!"):
		return ""
	}
	return strings.TrimSpace(text)
}

// isAssertionText reports whether a comment's text, read as code, holds an
// assertion.
func isAssertionText(text string) bool {
	if !strings.Contains(text, "expect") && !strings.Contains(text, "assert") && !strings.Contains(text, "should") {
		return false
	}
	ct := newTree(text, false)
	for j := range ct.toks {
		if ct.toks[j].Kind == tkIdent && len(ct.assertionAt(j, len(ct.toks), "")) > 0 {
			return true
		}
	}
	return false
}

// unusedFuncs returns the token spans of the block bodies of the local
// functions declared between from and to (`const check = (x) => {...}`,
// `function check() {...}`) whose name nothing else there names: a
// function nothing calls or passes on never runs.
func (t *tree) unusedFuncs(from, to int) [][2]int {
	identAt := func(k int) bool { return k < len(t.toks) && t.toks[k].Kind == tkIdent }
	// afterParams is the token after a parameter list or single parameter
	// at k, -1 when there is none.
	afterParams := func(k int) int {
		switch {
		case t.punct(k, "("):
			if c := int(t.match[k]); c > k {
				return c + 1
			}
		case identAt(k):
			return k + 1
		}
		return -1
	}
	var out [][2]int
	for i := from; i+2 < to; i++ {
		name, open := -1, -1
		generator := false
		switch {
		case t.ident(i, "function") && identAt(i+1) && t.punct(i+2, "("):
			name, open = i+1, afterParams(i+2)
		case t.ident(i, "function") && t.punct(i+1, "*") && identAt(i+2) && t.punct(i+3, "("):
			// function* check() {...}: a call makes an iterator and runs
			// nothing until something iterates it.
			name, open, generator = i+2, afterParams(i+3), true
		case (t.ident(i, "const") || t.ident(i, "let") || t.ident(i, "var")) && identAt(i+1) && t.punct(i+2, "="):
			name = i + 1
			k := i + 3
			if t.ident(k, "async") {
				k++
			}
			if t.ident(k, "function") { // = function [name](...) {
				if k++; identAt(k) && t.punct(k+1, "(") {
					k++
				}
				open = afterParams(k)
			} else if k = afterParams(k); k >= 0 && t.punct(k, "=>") {
				open = k + 1
			}
		}
		if open < 0 || !t.punct(open, "{") || int(t.match[open]) <= open {
			continue
		}
		n := t.toks[name].Text
		used := false
		for j := from; j < to && !used; j++ {
			used = j != name && t.toks[j].Kind == tkIdent && t.toks[j].Text == n && !(generator && t.bareCall(j))
		}
		if !used {
			out = append(out, [2]int{open, int(t.match[open])})
		}
	}
	return out
}

// bareCall reports whether the identifier at j starts a call that is a
// statement of its own, its value dropped: it starts a statement (after
// `;`, `{`, `}` or on a line of its own) and its closing parenthesis ends
// it (`;`, `}` or a new line).
func (t *tree) bareCall(j int) bool {
	if j < 1 || !t.punct(j+1, "(") {
		return false
	}
	if p := t.toks[j-1]; !t.punct(j-1, ";") && !t.punct(j-1, "{") && !t.punct(j-1, "}") && p.Line == t.toks[j].Line {
		return false
	}
	c := int(t.match[j+1])
	if c <= j+1 {
		return false
	}
	return c+1 >= len(t.toks) || t.punct(c+1, ";") || t.punct(c+1, "}") || t.toks[c+1].Line > t.toks[c].Line
}
