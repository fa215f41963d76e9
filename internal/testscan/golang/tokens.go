package golang

import (
	"fmt"
	"go/ast"
	"go/token"
	"strconv"
	"strings"
	"unicode"
)

// maxLiterals caps TestCase.Literals.
const maxLiterals = 64

// tokenSeq is the significant tokens of a piece of source: comments, semicolons
// (explicit or automatic) and trailing commas before a closing bracket are left
// out, so that gofmt and hand reformatting leave the sequence unchanged.
type tokenSeq struct {
	src  *source
	toks []tok
	// first is the index of toks[0] in src.toks.
	first int
}

// lit is the text of the i-th token.
func (seq tokenSeq) lit(i int) string {
	t := seq.toks[i]
	if t.end < 0 {
		return seq.src.lits[t.off]
	}
	return string(seq.src.src[t.off:t.end])
}

// litLen is the length of the text of the i-th token.
func (seq tokenSeq) litLen(i int) int {
	t := seq.toks[i]
	if t.end < 0 {
		return len(seq.src.lits[t.off])
	}
	return int(t.end - t.off)
}

// tokenAt is the index of the first token at or after offset off.
func tokenAt(toks []tok, off int) int {
	lo, hi := 0, len(toks)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if int(toks[m].off) < off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// split is seq without the tokens of n, as the runs before and after them.
func (u *unit) split(seq tokenSeq, n ast.Node) (before, after tokenSeq) {
	if n == nil {
		return seq, tokenSeq{src: seq.src, first: seq.first + len(seq.toks)}
	}
	i := tokenAt(seq.toks, u.off(n.Pos()))
	j := max(i, tokenAt(seq.toks, u.off(n.End())))
	return seq.sub(0, i), seq.sub(j, len(seq.toks))
}

// sub is seq.toks[i:j] as a sequence.
func (seq tokenSeq) sub(i, j int) tokenSeq {
	return tokenSeq{src: seq.src, toks: seq.toks[i:j:j], first: seq.first + i}
}

// bodySeq is the tokens of a block without its outer braces.
func (u *unit) bodySeq(b *ast.BlockStmt) tokenSeq {
	seq := u.span(b)
	if n := len(seq.toks); n >= 2 && seq.toks[0].kind() == token.LBRACE && seq.toks[n-1].kind() == token.RBRACE {
		seq = seq.sub(1, n-1)
	}
	return seq
}

func isCloser(t token.Token) bool {
	return t == token.RPAREN || t == token.RBRACK || t == token.RBRACE
}

func isWordish(t token.Token) bool {
	return t.IsLiteral() || t.IsKeyword()
}

// join is the normalized text of seq: its tokens separated the way gofmt mostly
// does (a space between two word-like tokens, after a comma and around
// assignment, comparison and logical operators, nothing elsewhere), so that
// "[]int{1,2,\n}" and "[]int{1, 2}" both read "[]int{1, 2}".
func (seq tokenSeq) join() string {
	switch len(seq.toks) {
	case 0:
		return ""
	case 1:
		return seq.lit(0)
	}
	size := 0
	for i := range seq.toks {
		size += seq.litLen(i)
		if i > 0 && gap(seq.toks[i-1].kind(), seq.toks[i].kind()) {
			size++
		}
	}
	var b strings.Builder
	b.Grow(size)
	for i, t := range seq.toks {
		if i > 0 && gap(seq.toks[i-1].kind(), t.kind()) {
			b.WriteByte(' ')
		}
		if t.end < 0 {
			b.WriteString(seq.src.lits[t.off])
		} else {
			b.Write(seq.src.src[t.off:t.end])
		}
	}
	return b.String()
}

// gap reports whether join puts a space between tokens prev and t.
func gap(prev, t token.Token) bool {
	return (isWordish(t) && isWordish(prev)) || prev == token.COMMA || spaced(t) || spaced(prev)
}

// spaced reports operators written with a space on both sides.
func spaced(t token.Token) bool {
	switch t {
	case token.ASSIGN, token.DEFINE, token.EQL, token.NEQ, token.LEQ, token.GEQ, token.LAND, token.LOR,
		token.ADD_ASSIGN, token.SUB_ASSIGN, token.MUL_ASSIGN, token.QUO_ASSIGN, token.REM_ASSIGN,
		token.AND_ASSIGN, token.OR_ASSIGN, token.XOR_ASSIGN, token.SHL_ASSIGN, token.SHR_ASSIGN, token.AND_NOT_ASSIGN:
		return true
	}
	return false
}

// literals appends the normalized string and number literals of seq to dst,
// until dst holds maxLiterals.
func (seq tokenSeq) literals(dst []string) []string {
	var buf [maxLiterals]string
	found := buf[:0:max(0, maxLiterals-len(dst))]
	for i, t := range seq.toks {
		if len(found) == cap(found) {
			break
		}
		switch t.kind() {
		case token.STRING:
			found = append(found, normString(seq.lit(i)))
		case token.INT, token.FLOAT, token.IMAG, token.CHAR:
			found = append(found, strings.ToLower(seq.lit(i)))
		}
	}
	if len(found) == 0 {
		return dst
	}
	if dst == nil {
		return append(make([]string, 0, len(found)), found...)
	}
	return append(dst, found...)
}

// normString turns a raw or interpreted string literal into its interpreted
// form, so `a` and "a" read the same.
func normString(lit string) string {
	if plainQuoted(lit) {
		return lit
	}
	v, err := strconv.Unquote(lit)
	if err != nil {
		return lit
	}
	return strconv.Quote(v)
}

// plainQuoted reports an interpreted string literal of printable ASCII without
// escapes, which strconv.Quote would write back unchanged.
func plainQuoted(lit string) bool {
	if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return false
	}
	for i := 1; i < len(lit)-1; i++ {
		if c := lit[i]; c < ' ' || c > '~' || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// unquote is the value of a string literal, or "" and false.
func unquote(lit string) (string, bool) {
	v, err := strconv.Unquote(lit)
	return v, err == nil
}

// rewriteName applies the testing package's subtest name rewrite: spaces become
// underscores and unprintable runes are escaped.
func rewriteName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			b.WriteByte('_')
		case !strconv.IsPrint(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// namer hands out unique subtest names the way the testing package does: a name
// used before gets "#01", "#02"..., and an empty name is "#00".
type namer struct {
	used map[string]int
}

func (n *namer) unique(parent, sub string) string {
	if n.used == nil {
		n.used = map[string]int{}
	}
	name := parent + "/" + sub
	empty := sub == ""
	for i := 0; i < 1000; i++ {
		next, exists := n.used[name]
		if !empty && !exists {
			n.used[name] = 1
			return name
		}
		n.used[name] = next + 1
		name = fmt.Sprintf("%s#%02d", name, next)
		empty = false
	}
	return name
}
