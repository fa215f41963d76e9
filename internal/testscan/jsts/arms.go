package jsts

import (
	"slices"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/clex"
)

// maxCondTokens bounds the tokens a ternary's condition is named by.
const maxCondTokens = 32

// armsAt returns the branches (testscan.Arm) the statement of the check
// headed by token j sits in, between the test body's first token from and
// j, outermost first: the arms of if/else (else-if chains included), of a
// ternary, of a switch's runs of cases, and the bodies of loops (one arm,
// so that a check moved out of a loop is not taken for one in it). A
// branch whose conditional cannot be read gets an arm with no Cond, which
// matches nothing.
func (t *tree) armsAt(j, from int) []testscan.Arm {
	k := j
	if t.ident(k-1, "await") || t.ident(k-1, "return") {
		k--
	}
	start := t.stmtStart(k, from)
	rev := t.stmtArms(start, from, nil)
	rev = t.shortCircuitArm(start, k, rev)
	child := k
	for p := int(t.parent[k]); p >= from; child, p = p, int(t.parent[p]) {
		if !t.punct(p, "{") {
			// A call's arguments (a callback) or a ternary's operand in
			// parentheses: the statement around them may be an arm.
			if cond := t.expectsFailure(p); cond != "" {
				rev = append(rev, testscan.Arm{At: p, Cond: cond})
			}
			rev = t.stmtArms(t.stmtStart(p, from), from, rev)
			continue
		}
		rev = t.switchArm(p, child, rev)
		rev = t.stmtArms(p, from, rev)
	}
	slices.Reverse(rev)
	return rev
}

// stmtArms appends, innermost first, the arms that the statement (or
// block, or ternary operand) starting at k is itself the body of: a
// function's body within the test's (from on) is one too, as a loop's is,
// since a callback runs as often as it is called.
func (t *tree) stmtArms(k, from int, rev []testscan.Arm) []testscan.Arm {
	switch {
	case k-1 >= from && t.punct(k-1, "=>"):
		rev = append(rev, testscan.Arm{At: k - 1, Cond: "=>"})
	case t.punct(k-1, ")"):
		o := int(t.match[k-1])
		if o <= 0 {
			return rev
		}
		switch {
		case t.ident(o-1, "if"):
			cond := t.condText(o-1, k)
			if c := clex.ConstantIf(t.clexTokens(o-1, k), t.allClexTokens, tkIdent, tkPunct, isLiteral); c != "" {
				cond = c
			}
			rev = append(rev, testscan.Arm{At: o - 1, Cond: cond, Index: 0})
			if t.ident(o-2, "else") {
				rev = t.elseArm(o-1, rev)
			}
		case t.ident(o-1, "for") || t.ident(o-1, "while"):
			rev = append(rev, testscan.Arm{At: o - 1, Cond: t.condText(o-1, k)})
		case o-1 >= from && (t.ident(o-1, "function") || t.ident(o-2, "function")):
			rev = append(rev, testscan.Arm{At: o - 1, Cond: "function"})
		}
	case t.ident(k-1, "try") && t.punct(k, "{"):
		if c, kept := t.catchDropping(k); c >= 0 {
			how := testscan.Swallowed
			if kept {
				how = "captured by "
			}
			rev = append(rev, testscan.Arm{At: k - 1, Cond: how + t.condText(c, c+1)})
		}
	case t.ident(k-1, "else"):
		rev = t.elseArm(k, rev)
	case t.ident(k-1, "do"):
		rev = append(rev, testscan.Arm{At: k - 1, Cond: "do"})
	case t.punct(k-1, "?"):
		rev = append(rev, testscan.Arm{At: k - 1, Cond: t.ternaryCond(k - 1), Index: 0})
	case t.punct(k-1, ":"):
		if q := t.ternaryOf(k - 1); q >= 0 {
			rev = append(rev, testscan.Arm{At: q, Cond: t.ternaryCond(q), Index: 1})
		}
	}
	return rev
}

// stmtStart returns where the statement (or ternary operand) that token k
// is part of starts on k's line: back over the tokens of k's level, a
// call's arguments and an index, to a statement boundary or what guards
// it (an if's or loop's header, else, =>, ?, :).
func (t *tree) stmtStart(k, from int) int {
	par := t.parent[k]
	s := k
	for {
		i := s - 1
		if i < from || i < 0 || int(par) == i || t.parent[i] != par || t.toks[i].Line != t.toks[s].Line {
			return s
		}
		switch {
		case t.punct(i, ")") || t.punct(i, "]"):
			o := int(t.match[i])
			if o < 0 || o >= i || t.ident(o-1, "if") || t.ident(o-1, "for") || t.ident(o-1, "while") {
				return s
			}
			s = o
			continue
		case t.kind(i) == tkPunct:
			switch t.toks[i].Text {
			case ";", ",", "{", "}", "=>", "?", ":":
				return s
			}
		case t.ident(i, "else") || t.ident(i, "do"):
			return s
		}
		s = i
	}
}

// catchDropping returns the catch keyword after the try block opened at
// k when its handler drops what it catches: a check failing in the try
// block throws, and a catch block that neither throws again nor checks
// anything (no throw, expect, assert, fail or done call) lets the test pass.
// -1 when there is no catch or it does not swallow. kept is set when the
// catch block stores something in a variable (the caught error, for a
// check later on): the failure is captured rather than dropped.
func (t *tree) catchDropping(k int) (c int, kept bool) {
	end := int(t.match[k])
	if end <= k {
		return -1, false
	}
	c = end + 1
	if !t.ident(c, "catch") {
		return -1, false
	}
	b := c + 1
	if t.punct(b, "(") {
		if m := int(t.match[b]); m > b {
			b = m + 1
		} else {
			return -1, false
		}
	}
	if !t.punct(b, "{") {
		return -1, false
	}
	bend := int(t.match[b])
	if bend <= b {
		return -1, false
	}
	for i := b + 1; i < bend; i++ {
		if t.punct(i, "=") {
			kept = true
		}
		if t.kind(i) != tkIdent {
			continue
		}
		switch t.toks[i].Text {
		case "throw", "expect", "assert", "fail", "done", "reject", "should":
			return -1, false
		}
	}
	return c, kept
}

// shortCircuitArm appends the arm of a check that only runs when the
// operand before it allows (`process.env.SLOW && expect(x).toBe(1)`,
// `skip || expect(x)...`): the statement from start to the check at k
// holds a && or || at the check's own level.
func (t *tree) shortCircuitArm(start, k int, rev []testscan.Arm) []testscan.Arm {
	par := t.parent[k]
	for i := k - 1; i >= start; i-- {
		if t.parent[i] != par || t.kind(i) != tkPunct {
			continue
		}
		if op := t.toks[i].Text; op == "&&" || op == "||" || op == "??" {
			return append(rev, testscan.Arm{At: i, Cond: t.condText(start, i+1)})
		}
	}
	return rev
}

// elseArm appends the else-arm that the statement at k (after "else")
// is, and the arms of the chain the if it belongs to continues.
func (t *tree) elseArm(k int, rev []testscan.Arm) []testscan.Arm {
	e := k - 1
	if t.punct(e-1, "}") {
		if m := int(t.match[e-1]); m > 0 && t.punct(m-1, ")") {
			if o := int(t.match[m-1]); o > 0 && t.ident(o-1, "if") {
				rev = append(rev, testscan.Arm{At: o - 1, Cond: t.condText(o-1, m), Index: 1})
				if t.ident(o-2, "else") {
					rev = t.elseArm(o-1, rev)
				}
				return rev
			}
		}
	}
	// A braceless then-branch: the if is not read, so the arm matches
	// nothing.
	return append(rev, testscan.Arm{At: e, Index: 1})
}

// switchArm appends, when the block opened at p is a switch's, the arm
// the statement child of it is in: the runs of cases between the
// switch's unconditional break, return, throw or continue statements
// (cases that fall through into each other are one arm).
func (t *tree) switchArm(p, child int, rev []testscan.Arm) []testscan.Arm {
	if !t.punct(p-1, ")") {
		return rev
	}
	o := int(t.match[p-1])
	if o <= 0 || !t.ident(o-1, "switch") {
		return rev
	}
	n := 0
	for i := p + 1; i < child; i++ {
		if int(t.parent[i]) == p && t.kind(i) == tkIdent && !t.isMember(i) {
			switch t.toks[i].Text {
			case "break", "return", "throw", "continue":
				n++
			}
		}
	}
	return append(rev, testscan.Arm{At: o - 1, Cond: t.condText(o-1, p), Index: n})
}

// condText is the normalized source of tokens from..to-1 (a keyword and
// its parenthesized condition).
func (t *tree) condText(from, to int) string {
	return strings.Join(t.normTokens(from, to), " ")
}

// ternaryOf returns the "?" that the ":" at c closes, -1 when c is not
// a ternary's (an object key, a case label, a type annotation).
func (t *tree) ternaryOf(c int) int {
	par := t.parent[c]
	depth := 0
	for i := c - 1; i >= 0 && c-i <= 4*maxCondTokens; i-- {
		if t.parent[i] != par {
			if i == int(par) {
				return -1
			}
			continue
		}
		if t.kind(i) == tkIdent && (t.toks[i].Text == "case" || t.toks[i].Text == "default") {
			return -1
		}
		if t.kind(i) != tkPunct {
			continue
		}
		switch t.toks[i].Text {
		case ":":
			depth++
		case "?":
			if depth == 0 {
				return i
			}
			depth--
		case ";", ",", "{", "=>":
			return -1
		}
	}
	return -1
}

// ternaryCond is the normalized condition of the ternary whose "?" is at
// q: the operand before it, back to the start of its expression.
func (t *tree) ternaryCond(q int) string {
	par := t.parent[q]
	from := q
	for i := q - 1; i >= 0 && q-i <= maxCondTokens; i-- {
		if t.parent[i] != par {
			if i == int(par) {
				break
			}
			from = i
			continue
		}
		if t.kind(i) == tkPunct {
			switch t.toks[i].Text {
			case ";", ",", "=", "=>", "?", ":":
				return "?" + t.condText(from, q)
			}
		}
		if t.ident(i, "return") {
			break
		}
		from = i
	}
	return "?" + t.condText(from, q)
}

// expectsFailure reads the parenthesis at p as the arguments of a call that
// expects its callback to throw whatever it throws, a failed check
// included: expect(fn).toThrow() or .toThrowError() with no argument or
// Error or AssertionError (a message or another error type lets a failed
// check through), chai's expect(fn).to.throw(), assert.throws(fn) and
// assert.rejects(fn) (node:assert, t.throws in ava and tap) likewise. It
// returns the arm's condition (testscan.Inverted and the call), "" for
// anything else.
func (t *tree) expectsFailure(p int) string {
	if !t.punct(p, "(") || p < 1 {
		return ""
	}
	c := int(t.match[p])
	if c <= p {
		return ""
	}
	generic := func(open int) bool { // the arguments from open: none, or a generic error
		if !t.punct(open, "(") {
			return false
		}
		end := int(t.match[open])
		if end == open+1 {
			return true
		}
		return end == open+2 && (t.ident(open+1, "Error") || t.ident(open+1, "AssertionError") || t.ident(open+1, "JestAssertionError"))
	}
	switch {
	case t.ident(p-1, "expect"):
		k := c + 1
		for _, w := range []string{"to", "be"} { // chai: expect(fn).to.throw()
			if t.punct(k, ".") && t.ident(k+1, w) {
				k += 2
			}
		}
		if !t.punct(k, ".") {
			return ""
		}
		switch {
		case t.ident(k+1, "toThrow") || t.ident(k+1, "toThrowError") || t.ident(k+1, "throw") || t.ident(k+1, "throws"):
			if generic(k + 2) {
				return testscan.Inverted + "expect(...)." + t.toks[k+1].Text + "()"
			}
			return testscan.Expecting + "expect(...)." + t.toks[k+1].Text + "(...)"
		}
	case p >= 3 && (t.ident(p-1, "throws") || t.ident(p-1, "rejects")) && t.punct(p-2, "."):
		// assert.throws(fn), assert.throws(fn, Error), t.throws(fn).
		args := 0
		second := -1
		for k := p + 1; k < c; k++ {
			if int(t.parent[k]) == p && t.punct(k, ",") {
				args++
				if args == 1 {
					second = k + 1
				}
			}
		}
		if args == 0 || second >= 0 && second+1 == c && (t.ident(second, "Error") || t.ident(second, "AssertionError")) {
			return testscan.Inverted + t.toks[p-3].Text + "." + t.toks[p-1].Text + "(...)"
		}
		return testscan.Expecting + t.toks[p-3].Text + "." + t.toks[p-1].Text + "(...)"
	}
	return ""
}

// isLiteral reports a single-token literal: a number, a string, a template
// without substitutions, true or false.
func isLiteral(t clex.Token) bool {
	return t.Kind == tkNumber || t.Kind == tkString || t.Kind == tkTemplate || t.Kind == tkIdent && (t.Text == "true" || t.Text == "false")
}

// clexTokens is a copy of the tokens from i to end without what this
// package adds to them.
func (t *tree) clexTokens(i, end int) []clex.Token {
	out := make([]clex.Token, 0, end-i)
	for _, tk := range t.toks[i:end] {
		out = append(out, tk.Token)
	}
	return out
}

// allClexTokens is the file's tokens as clex reads them, copied once.
func (t *tree) allClexTokens() []clex.Token {
	if t.plain == nil {
		t.plain = t.clexTokens(0, len(t.toks))
	}
	return t.plain
}
