package mutate

import "sort"

// Operator priorities: a line's mutant is the first valid edit of the
// highest priority, leftmost first.
const (
	tokBoundary = iota
	tokRelational
	tokLogical
	tokNegate
	tokArithmetic
	tokIncrement
	tokZeroReturn
	tokRemove
	tokPriorities
)

// tokOperators are the Mutant.Operator of each priority.
var tokOperators = [tokPriorities]string{
	"boundary", "relational", "logical", "negate-condition", "arithmetic", "increment",
	"zero-return", "remove-statement",
}

// tokBoundaryFlip moves a relational operator across its boundary, and
// tokInvertFlip inverts it. A comparison with an integer literal (len(s) >
// 1, total >= 100) gets the boundary: the literal is an edge a test can sit
// on. One between computed values (a ratio, a heuristic's threshold) gets
// the inversion: its boundary is rarely meaningful (on go-cmp's history most
// such boundary mutants were ties no reviewer would test), while a
// comparison whose inversion goes unnoticed has an outcome no test checks.
var (
	tokBoundaryFlip = map[string]string{"<": "<=", "<=": "<", ">": ">=", ">=": ">"}
	tokInvertFlip   = map[string]string{"<": ">=", "<=": ">", ">": "<=", ">=": "<"}
)

// intLiteral reports whether a token's text is an integer literal (digits,
// with _ separators, or 0x, 0o, 0b forms).
func intLiteral(text string) bool {
	if text == "" || text[0] < '0' || text[0] > '9' {
		return false
	}
	for _, c := range text {
		switch {
		case c >= '0' && c <= '9', c == '_', c == 'x', c == 'X', c == 'o', c == 'O', c == 'b', c == 'B', c >= 'a' && c <= 'f', c >= 'A' && c <= 'F', c == 'n':
		default:
			return false
		}
	}
	return true
}

// tokArithmeticFlip swaps an arithmetic operator for its counterpart.
var tokArithmeticFlip = map[string]string{"+": "-", "-": "+", "*": "/", "/": "*"}

// tokEdit is one candidate mutation of a line made on token boundaries:
// src[from:to] replaced by with, under operator op. delta is how many tokens
// the edit adds (negative when it removes some): the mutated file, tokenized
// again, must have exactly that many more, which catches an edit that glued
// two tokens into another one (a-+b becoming a++b) or broke the file.
type tokEdit struct {
	from, to int
	with, op string
	delta    int
}

// firstValid returns the mutant of the first of edits whose mutated source
// passes valid, given the source and the token count it must now have. The
// edits come in priority order, so the first valid one is the line's mutant.
func firstValid(p string, src []byte, line int, edits []tokEdit, ntoks int, valid func(mut []byte, ntoks int) bool) (Mutant, bool) {
	for _, e := range edits {
		m := splice(p, src, line, e.from, e.to, e.with, e.op)
		if valid(m.Src, ntoks+e.delta) {
			return m, true
		}
	}
	return Mutant{}, false
}

// sortedLines is lines sorted, each once, so that a line asked twice still
// gets at most one mutant and mutants come in line order.
func sortedLines(lines []int) []int {
	out := append([]int(nil), lines...)
	sort.Ints(out)
	n := 0
	for i, l := range out {
		if i == 0 || l != out[n-1] {
			out[n] = l
			n++
		}
	}
	return out[:n]
}
