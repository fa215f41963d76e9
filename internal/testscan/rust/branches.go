package rust

import (
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// This file reads a function's literal branches (testscan.Func.Branches,
// AIWG's LP-017): the branches that compare a variable with a literal and
// answer with a literal.

// readBranches adds to f the branches in (open, close) that test a
// variable against a literal and answer with a literal: `if x == 5 {
// return "five"; }`, `if x == "a" { 1 } else ..`, the arms `42 => true`
// of a match on a variable.
func (p *parser) readBranches(f *testscan.Func, open, close int) {
	for i := open + 1; i < close; i++ {
		switch {
		case p.is(i, "if") && !p.is(i+1, "let"):
			b := p.headBlock(i, close)
			if b >= close || !p.is(b, "{") {
				continue
			}
			subj, lit, ok := p.literalTest(i+1, b)
			if !ok {
				continue
			}
			if ans := p.blockAnswer(b, close); ans != "" {
				f.AddBranch(testscan.Branch{Line: p.toks[i].Line, Subject: subj, Literal: lit, Answer: ans})
			}
		case p.is(i, "match"):
			b := p.headBlock(i, close)
			if b >= close {
				continue
			}
			// `match c as u8 {` matches on c, as it does once the
			// conversion is dropped.
			to := b
			if b-2 > i+1 && p.is(b-2, "as") && p.at(b-1).Kind == tkIdent {
				to = b - 2
			}
			if p.subject(i+1, to) {
				p.matchArms(f, joinTokens(p.toks[i+1:to]), b, p.closeOf(b, close))
			}
		}
	}
}

// matchArms adds the literal arms of the match on subj whose arms are
// between the braces at open and close.
func (p *parser) matchArms(f *testscan.Func, subj string, open, close int) {
	for a := open + 1; a < close; {
		arrow := a
		for arrow < close && !p.is(arrow, "=>") {
			if p.isOpener(arrow) {
				arrow = p.closeOf(arrow, close)
			}
			arrow++
		}
		if arrow >= close {
			return
		}
		body := arrow + 1
		end := p.exprEnd(body, close)
		if p.is(body, "{") {
			end = p.closeOf(body, close) + 1
		}
		if lit := p.armPattern(a, arrow); lit != "" {
			ans := ""
			switch {
			case p.is(body, "{"):
				ans = p.blockAnswer(body, close)
			case p.is(body, "return"):
				ans = p.answerAt(body+1, end)
			default:
				ans = p.answerAt(body, end)
			}
			if ans != "" {
				f.AddBranch(testscan.Branch{Line: p.toks[a].Line, Subject: subj, Literal: lit, Answer: ans, Case: true})
			}
		}
		a = end
		if p.is(a, ",") {
			a++
		}
	}
}

// armPattern is the literal pattern of a match arm [from, to) (`5`, `"a" |
// "b"`), its alternatives joined by ", "; "" when any part is not a
// literal, or the arm has a guard.
func (p *parser) armPattern(from, to int) string {
	if p.is(from, "|") {
		from++
	}
	var lits []string
	start := from
	for k := from; k <= to; k++ {
		if k < to && !p.is(k, "|") {
			continue
		}
		lit, ok := branchLiteral(p.toks[start:k])
		if !ok {
			return ""
		}
		lits = append(lits, lit)
		start = k + 1
	}
	return strings.Join(lits, ", ")
}

// branchLiteral is the text of a string (not ""), char or number literal,
// a number possibly negated; true and false are not special cases.
func branchLiteral(toks []token) (string, bool) {
	if !isLiteral(toks) || toks[len(toks)-1].Kind == tkIdent {
		return "", false
	}
	text := joinTokens(toks)
	return text, text != `""`
}

// literalTest reads a condition [from, to) `x == lit` or `lit == x` whose x
// is a variable (a name or a chain of fields); a named constant is not a
// literal.
func (p *parser) literalTest(from, to int) (subject, lit string, ok bool) {
	op := -1
	for k := from; k < to; k++ {
		switch {
		case p.is(k, "==") && op < 0:
			op = k
		case p.is(k, "==") || p.is(k, "&&") || p.is(k, "||") || p.is(k, "!=") || p.isOpener(k):
			return "", "", false
		}
	}
	if op < 0 {
		return "", "", false
	}
	if l, ok := branchLiteral(p.toks[op+1 : to]); ok && p.fieldChain(from, op) {
		return joinTokens(p.toks[from:op]), l, true
	}
	if l, ok := branchLiteral(p.toks[from:op]); ok && p.fieldChain(op+1, to) {
		return joinTokens(p.toks[op+1 : to]), l, true
	}
	return "", "", false
}

// fieldChain reports whether [from, to) is a variable or a chain of its
// fields (`kind`, `self.mode`), possibly dereferenced, not a CONSTANT.
func (p *parser) fieldChain(from, to int) bool {
	if p.is(from, "*") {
		from++
	}
	if from >= to || (to-from)%2 == 0 {
		return false
	}
	for k := from; k < to; k++ {
		if (k-from)%2 == 0 && p.at(k).Kind != tkIdent || (k-from)%2 == 1 && !p.is(k, ".") {
			return false
		}
	}
	last := p.toks[to-1].Text
	return last == "self" || strings.ToUpper(last) != last || strings.ToLower(last) == last
}

// subject reports whether the match subject [from, to) is a variable, a
// chain of its fields or of calls without arguments (`kind`, `self.mode`,
// `name.as_str()`), possibly borrowed or dereferenced.
func (p *parser) subject(from, to int) bool {
	for from < to && (p.is(from, "&") || p.is(from, "*")) {
		from++
	}
	if from >= to || p.at(from).Kind != tkIdent {
		return false
	}
	for k := from + 1; k < to; k++ {
		switch {
		case p.is(k, ".") && p.at(k+1).Kind == tkIdent:
			k++
		case p.is(k, "(") && p.is(k+1, ")"):
			k++
		default:
			return false
		}
	}
	return true
}

// blockAnswer is the literal the block opening at open answers with at
// once: `{ lit }`, `{ return lit; }`, `{ x = lit; }`; true and false
// answer.
func (p *parser) blockAnswer(open, close int) string {
	c := p.closeOf(open, close)
	k := open + 1
	switch {
	case p.is(k, "return"):
		k++
	case p.at(k).Kind == tkIdent && p.fieldChain(k, k+1) && (p.is(k+1, "=") || p.is(k+1, ".")):
		j := k
		for p.is(j+1, ".") && p.at(j+2).Kind == tkIdent {
			j += 2
		}
		if !p.is(j+1, "=") {
			return ""
		}
		k = j + 2
	}
	end := k + 1
	if p.is(k, "-") {
		end++
	}
	if end > c || !(end == c || p.is(end, ";")) {
		return ""
	}
	return p.answerAt(k, end)
}

// answerAt is the literal [k, end) when it is one.
func (p *parser) answerAt(k, end int) string {
	if k >= end || !isLiteral(p.toks[k:end]) {
		return ""
	}
	return joinTokens(p.toks[k:end])
}
