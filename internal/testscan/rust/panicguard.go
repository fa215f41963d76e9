package rust

import (
	"slices"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/clex"
)

// panicGuard reads what a panic! at i (in the block opened at open) checks
// when it says nothing itself. The first statement of `if C { panic!(..) }`
// (no else) checks that C does not hold: it returns C and negate. Otherwise
// the condition C of the one `if C { return }` that lets the function out
// before the panic, in the statement just before it: that if itself, or a
// loop that polls until C holds
//
//	while start.elapsed() < limit {
//	    if leaked <= max { return; }
//	}
//	panic!("fds leak");
//
// is a check that C came to hold. ok is false when the statement before
// the panic is neither, when the loop returns anywhere else (an
// unconditional return never reaches the panic) or by more than one guard,
// and when the if has an else.
func panicGuard(toks []token, match []int, i, open int) (cond []token, negate, ok bool) {
	inner := open // the innermost block around the panic
	for k := i - 1; k > open; k-- {
		if t := toks[k]; t.Kind == tkPunct && (t.Text == "}" || t.Text == ")" || t.Text == "]") && match[k] >= 0 && match[k] < k {
			k = match[k]
		} else if isPunct(t, "{") {
			inner = k
			break
		}
	}
	if inner == i-1 {
		c, ok := ifGuard(toks, match, inner)
		return c, true, ok
	}
	c, ok := pollGuard(toks, match, i, inner)
	return c, false, ok
}

// pollGuard is panicGuard's `if C { return }` before the panic at i.
func pollGuard(toks []token, match []int, i, open int) (cond []token, ok bool) {
	p := i - 1
	if p <= open || !isPunct(toks[p], "}") {
		return nil, false
	}
	o := match[p]
	if o <= open || o >= p {
		return nil, false
	}
	h := stmtStart(toks, match, o, open)
	if h >= o || toks[h].Kind != tkIdent {
		return nil, false
	}
	switch toks[h].Text {
	case "if":
		if c, ok := returnGuard(toks, match, o, open); ok {
			return c, true
		}
		return nil, false
	case "while", "loop", "for":
	default:
		return nil, false
	}
	var guard []token
	for r := o + 1; r < p; r++ {
		if toks[r].Kind != tkIdent || toks[r].Text != "return" {
			continue
		}
		b := r - 1
		if guard != nil || b <= o || !isPunct(toks[b], "{") {
			return nil, false // a second return, or one not first in its block
		}
		c, ok := returnGuard(toks, match, b, o)
		if !ok {
			return nil, false
		}
		guard = c
	}
	return guard, guard != nil
}

// returnGuard reads the block opened at b, inside the block opened at lo,
// as `if C { return ... }` with no else, and returns C.
func returnGuard(toks []token, match []int, b, lo int) ([]token, bool) {
	if b+1 >= len(toks) || toks[b+1].Kind != tkIdent || toks[b+1].Text != "return" {
		return nil, false
	}
	return ifGuard(toks, match, b)
}

// ifGuard reads the block opened at b as the block of `if C { ... }`, with
// no else and not itself an else branch, and returns C.
func ifGuard(toks []token, match []int, b int) ([]token, bool) {
	lo := -1
	for k := b - 1; k >= 0; k-- {
		if isPunct(toks[k], "{") && match[k] > b {
			lo = k // the enclosing block
			break
		}
	}
	e := match[b]
	if lo < 0 || e <= b {
		return nil, false
	}
	if e+1 < len(toks) && toks[e+1].Kind == tkIdent && toks[e+1].Text == "else" {
		return nil, false
	}
	h := stmtStart(toks, match, b, lo)
	if h+1 >= b || toks[h].Kind != tkIdent || toks[h].Text != "if" || h > 0 && toks[h-1].Kind == tkIdent && toks[h-1].Text == "else" {
		return nil, false
	}
	cond := toks[h+1 : b]
	if cond[0].Kind == tkIdent && cond[0].Text == "let" {
		return nil, false // if let: a pattern, not a condition
	}
	return cond, true
}

// stmtStart returns the first token of the statement whose block opens at
// o (the if, while or loop of `while c {`), looking back no further than
// the block opened at lo: the token after the previous `;`, `{` or `}`.
func stmtStart(toks []token, match []int, o, lo int) int {
	k := o - 1
	for k > lo {
		t := toks[k]
		if t.Kind == tkPunct {
			switch t.Text {
			case ")", "]":
				if m := match[k]; m >= 0 && m < k {
					k = m - 1
					continue
				}
			case ";", "{", "}":
				return k + 1
			}
		}
		k--
	}
	return lo + 1
}

// negatedOps are the comparisons of a condition and their opposites.
var negatedOps = map[string]string{"<": ">=", ">": "<=", "<=": ">", ">=": "<", "==": "!=", "!=": "=="}

// guardCondition reads cond as the check of a panic! it guards (see
// panicGuard): what must hold for the test to pass, as assert!(..) would
// read it; negate when the panic fires on cond (`if leaked > max {
// panic!() }` checks leaked <= max; `if !ok { panic!() }` checks ok).
func guardCondition(a *testscan.Assertion, cond []token, negate bool) {
	if !negate {
		condition(a, cond)
		return
	}
	op, logical := -1, false
	clex.TopPuncts(cond, tkPunct, func(k int, text string) {
		switch text {
		case "&&", "||":
			logical = true
		case "<", ">":
			if k == 0 || cond[k-1].Text == "::" || k+1 < len(cond) && cond[k+1].Text == "::" {
				return // a generic's brackets
			}
			fallthrough
		case "<=", ">=", "==", "!=":
			if op < 0 {
				op = k
			} else {
				logical = true // two comparisons: read as a whole
			}
		}
	})
	switch {
	case logical || op < 0 && !(len(cond) > 1 && isPunct(cond[0], "!")):
		condition(a, cond)
		a.Negated = !a.Negated
	case op >= 0:
		flipped := slices.Clone(cond)
		flipped[op].Text = negatedOps[cond[op].Text]
		condition(a, flipped)
	default: // !x
		condition(a, cond[1:])
	}
}
