package jsts

import (
	"strconv"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan/clex"
)

// maxMatchSkip bounds how many unclosed openers a closer may skip to find its
// partner (it looks 32 deep), which keeps matching linear on garbage input.
const maxMatchSkip = 31

// tree is the token stream with bracket structure. match[i] is the partner of a
// bracket, -1 when it has none; template parts form a forward chain instead
// (head -> middle -> ... -> tail, each linked to the next part, the tail back to
// the part before it), with the substitution tokens nested between them.
// parent[i] is the innermost open bracket or template part containing token i,
// -1 at the top level.
type tree struct {
	src      string
	toks     []token
	comments []comment
	match    []int32
	parent   []int32
	broken   bool
	req      *reqScope // supertest imports and request variables, read on first use
	// links marks, one bit per token, the heads and links of assertion chains
	// (see markLinks), allocated on first use.
	links []uint64
	// plain is the tokens without this package's additions, copied on
	// first use (allClexTokens).
	plain []clex.Token
}

func newTree(src string, jsx bool) *tree {
	l := lex(src, jsx)
	t := &tree{src: src, toks: l.toks, comments: l.comments, broken: l.broken}
	t.matchBrackets()
	return t
}

// opener returns the bracket class of token i when it opens one.
func (t *tree) opener(i int) byte {
	tk := &t.toks[i]
	switch tk.Kind {
	case tkPunct:
		switch tk.Text {
		case "(", "[", "{":
			return tk.Text[0]
		}
	case tkTemplateHead, tkTemplateMiddle:
		return '`'
	}
	return 0
}

// closer returns the bracket class that token i closes.
func (t *tree) closer(i int) byte {
	tk := &t.toks[i]
	switch tk.Kind {
	case tkPunct:
		switch tk.Text {
		case ")":
			return '('
		case "]":
			return '['
		case "}":
			return '{'
		}
	case tkTemplateMiddle, tkTemplateTail:
		return '`'
	}
	return 0
}

func (t *tree) matchBrackets() {
	n := len(t.toks)
	t.match = make([]int32, n)
	t.parent = make([]int32, n)
	var opens clex.Opens
	for i := range n {
		t.match[i] = -1
		if c := t.closer(i); c != 0 {
			o, innermost := opens.Close(c, maxMatchSkip)
			if !innermost {
				t.broken = true
			}
			if o >= 0 {
				t.match[o] = int32(i)
				t.match[i] = int32(o)
			}
		}
		t.parent[i] = int32(opens.Top())
		if c := t.opener(i); c != 0 {
			opens.Push(i, c)
		}
	}
	if opens.Len() > 0 {
		t.broken = true
	}
}

// closeOf returns the partner of the opener at i when it lies before limit,
// otherwise limit-1 (the range runs to the end of what is available).
func (t *tree) closeOf(i, limit int) int {
	if i < 0 || i >= len(t.toks) {
		return limit - 1
	}
	if m := int(t.match[i]); m > i && m < limit {
		return m
	}
	return limit - 1
}

// matched reports whether the opener at i has a partner before limit.
func (t *tree) matched(i, limit int) bool {
	m := int(t.match[i])
	return m > i && m < limit
}

// skip returns the index after the bracketed group starting at i (or i+1).
func (t *tree) skip(i, limit int) int {
	if t.opener(i) != 0 {
		if m := int(t.match[i]); m > i && m < limit {
			// A template head's partner may be a middle: follow the chain.
			for t.toks[m].Kind == tkTemplateMiddle {
				next := int(t.match[m])
				if next <= m || next >= limit {
					return limit
				}
				m = next
			}
			return m + 1
		}
		return limit
	}
	return i + 1
}

func (t *tree) is(i int, kind tokKind, text string) bool {
	return i >= 0 && i < len(t.toks) && t.toks[i].Kind == kind && t.toks[i].Text == text
}

func (t *tree) punct(i int, text string) bool { return t.is(i, tkPunct, text) }

func (t *tree) ident(i int, text string) bool { return t.is(i, tkIdent, text) }

func (t *tree) kind(i int) tokKind {
	if i < 0 || i >= len(t.toks) {
		return 0
	}
	return t.toks[i].Kind
}

// isMember reports whether the token at i follows "." or "?." (a property name).
func (t *tree) isMember(i int) bool { return t.punct(i-1, ".") || t.punct(i-1, "?.") }

// splitArgs splits the tokens strictly between open and close at top-level
// commas. Each element is a half-open [from, to) range; empty ranges are kept
// except a trailing one.
func (t *tree) splitArgs(open, close int) [][2]int {
	var args [][2]int
	from := open + 1
	for j := open + 1; j < close; {
		if t.punct(j, ",") {
			args = append(args, [2]int{from, j})
			from = j + 1
			j++
			continue
		}
		j = t.skip(j, close)
	}
	if from < close {
		args = append(args, [2]int{from, close})
	}
	return args
}

// normTok returns the normalized text of one token: strings requoted from
// their cooked value, numbers lowercased without separators.
func (t *tree) normTok(i int) string {
	tk := &t.toks[i]
	switch tk.Kind {
	case tkString, tkTemplate:
		return strconv.Quote(tk.val)
	case tkNumber:
		return strings.ToLower(strings.ReplaceAll(tk.Text, "_", ""))
	case tkJSXText:
		return tk.val
	}
	return tk.Text
}

// normTokens returns the normalized tokens of [from, to): semicolons and
// trailing commas are dropped and a lone arrow parameter loses its parentheses,
// so formatters (prettier, eslint --fix) do not change the result.
func (t *tree) normTokens(from, to int) []string {
	out := make([]string, 0, max(min(to, len(t.toks))-max(from, 0), 0))
	t.eachNorm(from, to, func(s string) { out = append(out, s) })
	return out
}

// normCount is len(t.normTokens(from, to)) without building the tokens.
func (t *tree) normCount(from, to int) int {
	n := 0
	t.eachNorm(from, to, func(string) { n++ })
	return n
}

func (t *tree) eachNorm(from, to int, emit func(string)) {
	from = max(from, 0)
	to = min(to, len(t.toks))
	for i := from; i < to; i++ {
		if t.toks[i].Kind == tkPunct {
			switch t.toks[i].Text {
			case ";":
				continue
			case ",":
				if i+1 < to && clex.Closer(t.toks[i+1].Token, tkPunct) {
					continue
				}
			case "(":
				if i+3 < to && t.kind(i+1) == tkIdent && t.punct(i+2, ")") && t.punct(i+3, "=>") {
					emit(t.toks[i+1].Text)
					i += 2
					continue
				}
			}
		}
		emit(t.normTok(i))
	}
}

// maxNormTokens bounds the tokens of one subject or expected value; longer
// operands end in "..." (consistently, so they still compare).
const maxNormTokens = 128

// norm joins the normalized tokens of [from, to) with a space only between two
// word-like tokens, the form used for assertion subjects and expected values.
func (t *tree) norm(from, to int) string {
	if to-from > maxNormTokens {
		return joinTokens(t.normTokens(from, from+maxNormTokens)) + "..."
	}
	return joinTokens(t.normTokens(from, to))
}

func joinTokens(toks []string) string {
	var b strings.Builder
	for k, s := range toks {
		if k > 0 && s != "" && b.Len() > 0 {
			prev := toks[k-1]
			if prev != "" && isWordByte(prev[len(prev)-1]) && isWordByte(s[0]) {
				b.WriteByte(' ')
			}
		}
		b.WriteString(s)
	}
	return b.String()
}

func isWordByte(c byte) bool { return ident.StartByte(c) || clex.IsDigit(c) || c >= 0x80 }

// literalText returns the normalized text of a literal operand starting at i
// ("-5" included) and the index after it; ok is false when i is no literal.
func (t *tree) literalText(i, limit int) (text string, next int, ok bool) {
	switch t.kind(i) {
	case tkString, tkTemplate, tkNumber:
		return t.normTok(i), i + 1, true
	case tkPunct:
		if (t.punct(i, "-") || t.punct(i, "+")) && i+1 < limit && t.kind(i+1) == tkNumber {
			s := t.normTok(i + 1)
			if t.punct(i, "-") {
				s = "-" + s
			}
			return s, i + 2, true
		}
	}
	return "", i, false
}

// constKeywords are identifiers that denote constant values.
var constKeywords = map[string]bool{
	"true": true, "false": true, "null": true, "undefined": true, "NaN": true, "Infinity": true,
}

// isConstant reports whether [from, to) is a non-empty expression made only of
// literals and operators: it cannot depend on the code under test.
func (t *tree) isConstant(from, to int) bool {
	if from >= to {
		return false
	}
	for i := from; i < to; i++ {
		switch t.toks[i].Kind {
		case tkIdent:
			// A property key of an object literal ({ name: 'bob' }) names no
			// value.
			key := i > from && t.punct(i+1, ":") && (t.punct(i-1, "{") || t.punct(i-1, ","))
			if !constKeywords[t.toks[i].Text] && !key {
				return false
			}
		case tkTemplateHead, tkTemplateMiddle, tkTemplateTail, tkRegex, tkJSXText:
			return false
		case tkPunct:
			switch t.toks[i].Text {
			case "=>", ".", "?.", "=", "++", "--":
				return false
			}
		}
	}
	return true
}
