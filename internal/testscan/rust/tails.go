package rust

import "github.com/ralph-gate/ralph-gate/internal/testscan"

// This file finds the tails of a function body (testscan.Func.Exits): the
// last expression of the body, which is its answer when no ';' ends it,
// through the if, match or block the body ends with.

// maxTailDepth bounds the nesting of tails blockTail follows.
const maxTailDepth = 32

// blockTail adds the tail exits of the block between the braces at open
// and close: its last expression when no ';' ends it.
func (p *parser) blockTail(open, close int, out *[]exitAt, depth int) {
	if depth > maxTailDepth {
		return
	}
	k := open + 1
	for k < close {
		end, blockLike := p.statementEnd(k, close)
		if end >= close {
			if blockLike {
				p.tailExpr(k, close, out, depth+1)
			} else {
				p.plainTail(k, close, out)
			}
			return
		}
		if p.is(end, ";") {
			end++
		}
		k = end
	}
}

// statementEnd is where the statement at k ends: its ';', or the index
// after the block that ends a block-like expression (if, match, loop,
// while, for, unsafe, a plain block) or a nested item; close when it runs
// to the block's end. blockLike says the statement is such an expression.
func (p *parser) statementEnd(k, close int) (int, bool) {
	t := p.toks[k]
	switch {
	case p.is(k, "#") && p.is(k+1, "["):
		return p.closeOf(k+1, close) + 1, false
	case t.Kind == tkLifetime && p.is(k+1, ":"):
		end, _ := p.statementEnd(k+2, close)
		return end, false
	case t.Kind == tkIdent && (t.Text == "fn" || t.Text == "impl" || t.Text == "trait" || t.Text == "mod" || t.Text == "struct" || t.Text == "enum" || t.Text == "use") && p.itemStart(k):
		return p.itemEnd(k, close), false
	case p.is(k, "if") || p.is(k, "match") || p.is(k, "loop") || p.is(k, "while") || p.is(k, "for") || p.is(k, "unsafe") || p.is(k, "{"):
		end := p.blockExprEnd(k, close)
		if end < close && !p.is(end, ";") && !p.is(end, ".") && !p.is(end, "?") && !binaryOp(p.at(end)) {
			return end, true
		}
		if end >= close {
			return close, true
		}
	}
	for j := k; j < close; j++ {
		switch {
		case p.is(j, ";"):
			return j, false
		case p.isOpener(j):
			j = p.closeOf(j, close)
		}
	}
	return close, false
}

// binaryOp reports an operator that continues an expression after a
// block (`match x {..} + 1`).
func binaryOp(t token) bool {
	if t.Kind != tkPunct {
		return false
	}
	switch t.Text {
	case "+", "-", "*", "/", "%", "==", "!=", "<", ">", "<=", ">=", "&&", "||", "&", "|", "^", "as", "..", "=":
		return true
	}
	return false
}

// blockExprEnd is the index after the block-like expression at k: an if
// with its else chain, a match, a loop, a plain or unsafe block.
func (p *parser) blockExprEnd(k, close int) int {
	for n := 0; k < close && n < 1024; n++ {
		open := p.headBlock(k, close)
		if open >= close {
			return close
		}
		end := p.closeOf(open, close) + 1
		if p.is(k, "if") && p.is(end, "else") {
			k = end + 1
			continue
		}
		return end
	}
	return close
}

// headBlock is the index of the block of the block-like expression at k:
// the first '{' after its head (an if's condition, a match's subject), or
// k itself for a plain block.
func (p *parser) headBlock(k, close int) int {
	if p.is(k, "{") {
		return k
	}
	for j := k + 1; j < close; j++ {
		switch {
		case p.is(j, "{"):
			return j
		case p.is(j, "(") || p.is(j, "["):
			j = p.closeOf(j, close)
		case p.is(j, ";") || p.is(j, "}") || p.is(j, ")") || p.is(j, "]") || p.is(j, "=>"):
			return close
		}
	}
	return close
}

// tailExpr adds the tail exits of the block-like expression [k, end): each
// branch of an if, each arm of a match, a block's tail.
func (p *parser) tailExpr(k, end int, out *[]exitAt, depth int) {
	if depth > maxTailDepth {
		return
	}
	switch {
	case p.is(k, "if"):
		for k < end {
			open := p.headBlock(k, end)
			if open >= end {
				return
			}
			c := p.closeOf(open, end)
			p.blockTail(open, c, out, depth+1)
			if !p.is(c+1, "else") {
				return
			}
			k = c + 2
			if p.is(k, "{") {
				p.blockTail(k, p.closeOf(k, end), out, depth+1)
				return
			}
		}
	case p.is(k, "match"):
		open := p.headBlock(k, end)
		if open >= end {
			return
		}
		c := p.closeOf(open, end)
		for a := open + 1; a < c; {
			arrow := a
			for arrow < c && !p.is(arrow, "=>") {
				if p.isOpener(arrow) {
					arrow = p.closeOf(arrow, c)
				}
				arrow++
			}
			if arrow >= c {
				return
			}
			body := arrow + 1
			if p.is(body, "{") {
				bc := p.closeOf(body, c)
				if next := bc + 1; next >= c || p.is(next, ",") || !p.is(next, ".") && !p.is(next, "?") {
					p.blockTail(body, bc, out, depth+1)
					a = next
					if p.is(a, ",") {
						a++
					}
					continue
				}
			}
			armEnd := p.exprEnd(body, c)
			if p.is(body, "if") || p.is(body, "match") || p.is(body, "unsafe") {
				p.tailExpr(body, armEnd, out, depth+1)
			} else {
				p.plainTail(body, armEnd, out)
			}
			a = armEnd + 1
		}
	case p.is(k, "{"):
		p.blockTail(k, p.closeOf(k, end), out, depth+1)
	case p.is(k, "unsafe") && p.is(k+1, "{"):
		p.blockTail(k+1, p.closeOf(k+1, end), out, depth+1)
	}
}

// plainTail adds the exit of a tail expression [from, to) that is not
// block-like; returns, exit macros and `Err(..)?` are scanExits's.
func (p *parser) plainTail(from, to int, out *[]exitAt) {
	if from >= to || p.is(from, "return") || p.is(from, "break") || p.is(from, "continue") {
		return
	}
	expr := p.toks[from:to]
	if n := len(expr); n >= 4 && expr[n-1].Text == ")" || n >= 4 && expr[n-1].Text == "]" || n >= 4 && expr[n-1].Text == "}" {
		// a macro call: name ! ( .. ), with an optional path
		if o := p.match[to-1]; o > from && p.is(o-1, "!") && p.at(o-2).Kind == tkIdent && p.pathFrom(from, o-2) {
			return
		}
	}
	*out = append(*out, exitAt{testscan.Exit{Line: expr[0].Line, Kind: exitKind(expr), Text: joinTokens(expr)}, from})
}

// pathFrom reports whether [from, to] is a path of names (`a::b::c`).
func (p *parser) pathFrom(from, to int) bool {
	for k := from; k <= to; k++ {
		if (k-from)%2 == 0 && p.at(k).Kind != tkIdent || (k-from)%2 == 1 && !p.is(k, "::") {
			return false
		}
	}
	return (to-from)%2 == 0
}
