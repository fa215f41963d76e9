package golang

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/scanner"
	"go/token"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// maxLiterals caps TestCase.Literals.
const maxLiterals = 64

// tok is one significant token of a unit.
type tok struct {
	off int
	t   token.Token
	lit string
}

// tokenSeq is the significant tokens of a piece of source: comments, semicolons
// (explicit or automatic) and trailing commas before a closing bracket are left
// out, so that gofmt and hand reformatting leave the sequence unchanged.
type tokenSeq []tok

// scanTokens scans b once into its significant tokens.
func scanTokens(b []byte) tokenSeq {
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(b))
	var s scanner.Scanner
	s.Init(f, b, func(token.Position, string) {}, 0)
	seq := make(tokenSeq, 0, len(b)/4)
	for {
		pos, t, lit := s.Scan()
		if t == token.EOF {
			return seq
		}
		if t == token.SEMICOLON {
			continue
		}
		if isCloser(t) && len(seq) > 0 && seq[len(seq)-1].t == token.COMMA {
			seq = seq[:len(seq)-1]
		}
		if lit == "" {
			lit = t.String()
		}
		seq = append(seq, tok{off: f.Offset(pos), t: t, lit: lit})
	}
}

// tokens is the unit's token sequence, scanned on first use.
func (u *unit) tokens() tokenSeq {
	if u.toks == nil {
		u.toks = scanTokens(u.src)
	}
	return u.toks
}

// span is the tokens of n.
func (u *unit) span(n ast.Node) tokenSeq {
	if n == nil {
		return nil
	}
	all := u.tokens()
	from, to := u.off(n.Pos()), u.off(n.End())
	i := sort.Search(len(all), func(i int) bool { return all[i].off >= from })
	j := sort.Search(len(all), func(i int) bool { return all[i].off >= to })
	if i > j {
		return nil
	}
	return all[i:j:j]
}

// without is seq minus the tokens of the given nodes.
func (u *unit) without(seq tokenSeq, nodes ...ast.Node) tokenSeq {
	out := make(tokenSeq, 0, len(seq))
	for _, t := range seq {
		skip := false
		for _, n := range nodes {
			if n != nil && t.off >= u.off(n.Pos()) && t.off < u.off(n.End()) {
				skip = true
			}
		}
		if !skip {
			out = append(out, t)
		}
	}
	return out
}

// bodySeq is the tokens of a block without its outer braces.
func (u *unit) bodySeq(b *ast.BlockStmt) tokenSeq {
	seq := u.span(b)
	if n := len(seq); n >= 2 && seq[0].t == token.LBRACE && seq[n-1].t == token.RBRACE {
		seq = seq[1 : n-1]
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
	var sb strings.Builder
	for i, t := range seq {
		if i > 0 {
			prev := seq[i-1].t
			if (isWordish(t.t) && isWordish(prev)) || prev == token.COMMA || spaced(t.t) || spaced(prev) {
				sb.WriteByte(' ')
			}
		}
		sb.WriteString(t.lit)
	}
	return sb.String()
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

// hasher accumulates token sequences into a fingerprint.
type hasher struct {
	buf    []byte
	tokens int
}

func (h *hasher) add(seq tokenSeq) {
	for _, t := range seq {
		h.addText(t.lit)
	}
	h.tokens += len(seq)
}

func (h *hasher) addText(s string) {
	h.buf = append(h.buf, s...)
	h.buf = append(h.buf, 0)
}

func (h *hasher) sum() string {
	d := sha256.Sum256(h.buf)
	return hex.EncodeToString(d[:8])
}

// literals appends the normalized string and number literals of seq to dst.
func (seq tokenSeq) literals(dst []string) []string {
	for _, t := range seq {
		if len(dst) >= maxLiterals {
			break
		}
		switch t.t {
		case token.STRING:
			dst = append(dst, normString(t.lit))
		case token.INT, token.FLOAT, token.IMAG, token.CHAR:
			dst = append(dst, strings.ToLower(t.lit))
		}
	}
	return dst
}

// normString turns a raw or interpreted string literal into its interpreted
// form, so `a` and "a" read the same.
func normString(lit string) string {
	v, err := strconv.Unquote(lit)
	if err != nil {
		return lit
	}
	return strconv.Quote(v)
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
