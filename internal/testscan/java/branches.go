package java

import (
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// This file reads a function's literal branches (testscan.Func.Branches,
// AIWG's LP-017): the branches that compare a variable with a literal and
// answer with a literal.

// readBranches adds to f the branches between the braces at open and
// close that test a variable against a literal and answer with a literal:
// `if (x == 5) return "five";`, `if ("a".equals(x)) kind = 1;`, `case 42:
// return true;`, `case "a" -> "x";`.
func (p *parser) readBranches(f *testscan.Func, open, close int) {
	var braces []int
	for i := open + 1; i < close; i++ {
		t := p.toks[i]
		switch {
		case p.is(i, "{"):
			braces = append(braces, i)
		case p.is(i, "}"):
			if len(braces) > 0 {
				braces = braces[:len(braces)-1]
			}
		case t.Kind != tkIdent:
		case t.Text == "if" && p.is(i+1, "("):
			c := p.match[i+1]
			if c <= i+1 || c >= close {
				continue
			}
			subj, lit, ok := p.literalTest(i+2, c)
			if !ok {
				continue
			}
			if ans := p.literalAnswer(c+1, close); ans != "" {
				f.AddBranch(testscan.Branch{Line: t.Line, Subject: subj, Literal: lit, Answer: ans})
			}
		case t.Text == "case" && len(braces) > 0:
			subj := p.switchSubject(braces[len(braces)-1])
			if subj == "" {
				continue
			}
			lit, next := p.caseLabels(i+1, close)
			if lit == "" {
				continue
			}
			if ans := p.caseAnswer(next, close); ans != "" {
				f.AddBranch(testscan.Branch{Line: t.Line, Subject: subj, Literal: lit, Answer: ans, Case: true})
			}
		}
	}
}

// literalTest reads a condition [from, to) that compares a variable (a name
// or a chain of names) with a literal: `x == lit`, `lit == x`,
// `"lit".equals(x)`, `x.equals("lit")`. A named constant is not a literal,
// nor are null, true, false and "".
func (p *parser) literalTest(from, to int) (subject, lit string, ok bool) {
	op := -1
	for k := from; k < to; k++ {
		switch {
		case p.is(k, "==") && op < 0:
			op = k
		case p.is(k, "==") || p.is(k, "&&") || p.is(k, "||") || p.is(k, "?") || p.is(k, "!="):
			return "", "", false
		case p.is(k, "(") || p.is(k, "["):
			if c := p.match[k]; c > k && c < to {
				k = c
			}
		}
	}
	if op >= 0 {
		if l, ok := branchLiteral(p.toks[op+1 : to]); ok && p.chain(from, op) {
			return joinTokens(p.toks[from:op]), l, true
		}
		if l, ok := branchLiteral(p.toks[from:op]); ok && p.chain(op+1, to) {
			return joinTokens(p.toks[op+1 : to]), l, true
		}
		return "", "", false
	}
	// x.equals("lit") or "lit".equals(x): name . equals ( arg ) ending at to.
	if to-from < 5 || !p.is(to-1, ")") || p.match[to-1] < from+3 {
		return "", "", false
	}
	o := p.match[to-1]
	if !p.is(o-2, ".") || p.at(o-1).Text != "equals" && p.at(o-1).Text != "equalsIgnoreCase" {
		return "", "", false
	}
	recv, arg := p.toks[from:o-2], p.toks[o+1:to-1]
	if l, ok := branchLiteral(arg); ok && p.chain(from, o-2) {
		return joinTokens(recv), l, true
	}
	if l, ok := branchLiteral(recv); ok && p.chain(o+1, to-1) {
		return joinTokens(arg), l, true
	}
	return "", "", false
}

// chain reports whether [from, to) is a name or a chain of names (`kind`,
// `this.mode`, `req.type`), not a constant's NAME.
func (p *parser) chain(from, to int) bool {
	if from >= to || !qualifiedName(p.toks[from:to]) {
		return false
	}
	last := p.toks[to-1].Text
	if last == "null" || last == "true" || last == "false" {
		return false
	}
	return strings.ToUpper(last) != last || strings.ToLower(last) == last
}

// branchLiteral is the text of a string (not ""), char or number literal,
// a number possibly negated.
func branchLiteral(toks []token) (string, bool) {
	if !isLiteral(toks) || toks[len(toks)-1].Kind == tkIdent || toks[0].Text == `""` {
		return "", false
	}
	return joinTokens(toks), true
}

// literalAnswer is the literal a statement starting at k answers with at
// once: `return lit;`, `yield lit;` or `x = lit;` (through an opening
// brace); true and false answer, null does not.
func (p *parser) literalAnswer(k, to int) string {
	for p.is(k, "{") {
		k++
	}
	switch {
	case p.is(k, "return") || p.is(k, "yield"):
		k++
	case p.at(k).Kind == tkIdent:
		j := k
		for p.is(j+1, ".") && p.at(j+2).Kind == tkIdent {
			j += 2
		}
		if !p.is(j+1, "=") {
			return ""
		}
		k = j + 2
	default:
		return ""
	}
	return p.answerAt(k, to)
}

// answerAt is the literal at k when a ';' ends it.
func (p *parser) answerAt(k, to int) string {
	end := k + 1
	if p.is(k, "-") {
		end++
	}
	if end >= to || !p.is(end, ";") || !isLiteral(p.toks[k:end]) || p.is(k, "null") {
		return ""
	}
	return joinTokens(p.toks[k:end])
}

// switchSubject is the variable a switch whose block opens at open
// switches on (`switch (kind) {`), through a cast (`switch ((int) c) {`
// switches on c, as it does once the cast is dropped), "" for any other
// block.
func (p *parser) switchSubject(open int) string {
	if !p.is(open-1, ")") {
		return ""
	}
	o := p.match[open-1]
	if o < 1 || !p.is(o-1, "switch") {
		return ""
	}
	from, to := o+1, open-1
	for n := 0; n < 4 && p.is(from, "(") && p.match[from] > from && p.match[from] < to; n++ {
		if c := p.match[from]; c == to-1 {
			from, to = from+1, c // parentheses around the subject
		} else {
			from = c + 1 // a cast
		}
	}
	if !p.chain(from, to) {
		return ""
	}
	return joinTokens(p.toks[from:to])
}

// caseLabels reads the labels of a case from k (`42`, `"a", "b"`) up to
// its ':' or '->': their texts joined by ", " and the index after the
// colon or arrow; "" when any label is not a literal.
func (p *parser) caseLabels(k, to int) (string, int) {
	var lits []string
	start := k
	for ; k < to; k++ {
		if p.is(k, ",") || p.is(k, ":") || p.is(k, "->") {
			l, ok := branchLiteral(p.toks[start:k])
			if !ok {
				return "", k
			}
			lits = append(lits, l)
			if !p.is(k, ",") {
				return strings.Join(lits, ", "), k + 1
			}
			start = k + 1
			continue
		}
		if k-start > 2 {
			return "", k
		}
	}
	return "", k
}

// caseAnswer is the literal the statements after a case label at k answer
// with: after `case 1: case 2:` labels that share it, `return lit;`,
// `yield lit;` or `x = lit;`; for a rule, `-> lit;` too.
func (p *parser) caseAnswer(k, to int) string {
	for p.is(k, "case") {
		if _, next := p.caseLabels(k+1, to); next > k+1 && p.is(next-1, ":") {
			k = next
			continue
		}
		return ""
	}
	if p.is(k-1, "->") {
		if ans := p.answerAt(k, to); ans != "" {
			return ans
		}
	}
	return p.literalAnswer(k, to)
}
