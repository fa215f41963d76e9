// Package clex is the core the tokenizers of the C-family languages share
// (Java, Rust, JavaScript/TypeScript): the token, what a lexer returns, the
// byte classes and the walks over a token stream that do not depend on the
// language. Each language keeps its own lexer for what differs (Java's text
// blocks and $, Rust's raw strings, lifetimes and nested comments, JS's
// template literals, regex literals and JSX) and its own Kind constants, so
// that a token's kind keeps the value the language gave it.
package clex

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// Kind classifies a token; each language names its kinds.
type Kind uint8

// Token is one significant lexeme; comments are kept apart. Off is the byte
// offset of its start where the lexer records it (JavaScript/TypeScript), 0
// elsewhere; on 64-bit platforms it fills the padding after Kind, so it costs
// the languages that leave it 0 no memory.
type Token struct {
	Kind Kind
	Off  int32
	Text string
	Line int
}

// IsDigit reports an ASCII digit.
func IsDigit(c byte) bool { return c >= '0' && c <= '9' }

// IsHex reports an ASCII hexadecimal digit.
func IsHex(c byte) bool { return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') }

// Ident classifies the bytes and runes of a language's identifiers: ASCII
// letters, '_' and the bytes of Extra start one; Unicode letters too.
type Ident struct{ Extra string }

// StartByte reports an ASCII byte that starts an identifier.
func (id Ident) StartByte(c byte) bool {
	if c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') {
		return true
	}
	for i := 0; i < len(id.Extra); i++ {
		if id.Extra[i] == c {
			return true
		}
	}
	return false
}

// Start reports whether s[i:] starts an identifier.
func (id Ident) Start(s string, i int) bool {
	c := s[i]
	if c < utf8.RuneSelf {
		return id.StartByte(c)
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsLetter(r)
}

// Part reports whether s[i:] goes on with an identifier.
func (id Ident) Part(s string, i int) bool {
	c := s[i]
	if c < utf8.RuneSelf {
		return id.StartByte(c) || IsDigit(c)
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// Closer reports a closing bracket of kind punct.
func Closer(t Token, punct Kind) bool {
	return t.Kind == punct && (t.Text == ")" || t.Text == "]" || t.Text == "}")
}

// Fingerprint hashes tokens with the identifier name (a test's own name)
// blanked out and trailing commas (formatting) left out, so that a renamed
// or reformatted test keeps its fingerprint.
func Fingerprint(toks []Token, name string, ident, punct Kind) string {
	var h testscan.TokenHash
	for i, t := range toks {
		if t.Kind == punct && t.Text == "," && i+1 < len(toks) && Closer(toks[i+1], punct) {
			continue
		}
		text := t.Text
		if t.Kind == ident && text == name {
			text = "\x01"
		}
		h.Add(byte(t.Kind), text)
	}
	return h.Sum()
}

// Opens is the stack of open brackets of a bracket matcher: each entry is a
// token index and the bracket's class (its opening byte, or whatever byte a
// language gives a bracket of its own, such as JS's template parts).
type Opens struct{ open []opening }

type opening struct {
	tok   int
	class byte
}

// Push opens a bracket of class at token i.
func (s *Opens) Push(i int, class byte) { s.open = append(s.open, opening{i, class}) }

// Len is the number of brackets still open.
func (s *Opens) Len() int { return len(s.open) }

// Top is the token index of the innermost open bracket, -1 when none is open.
func (s *Opens) Top() int {
	if len(s.open) == 0 {
		return -1
	}
	return s.open[len(s.open)-1].tok
}

// Close closes a bracket of class: it pops the nearest opener of that class
// and returns its token index; innermost is false when openers above it were
// skipped (they stay unpaired and are dropped). A closer skips at most skip
// openers, which keeps the matching linear on hostile input; when none of the
// openers in reach has the class, Close returns -1 and leaves the stack as is.
func (s *Opens) Close(class byte, skip int) (open int, innermost bool) {
	top := len(s.open) - 1
	for k := top; k >= 0 && k >= top-skip; k-- {
		if s.open[k].class == class {
			open = s.open[k].tok
			s.open = s.open[:k]
			return open, k == top
		}
	}
	return -1, false
}

// maxUnwind bounds how many unclosed openers a closer may skip to find its partner.
const maxUnwind = 8

// MatchGroups pairs every opening (, [ and { with its closer. match[i] is the index
// of the partner, or -1 when it has none; ok is false when anything was unpaired.
func MatchGroups(toks []Token, punct Kind) (match []int, ok bool) {
	match = make([]int, len(toks))
	ok = true
	var opens Opens
	for i, t := range toks {
		match[i] = -1
		if t.Kind != punct || len(t.Text) != 1 {
			continue
		}
		var open byte
		switch t.Text[0] {
		case '(', '[', '{':
			opens.Push(i, t.Text[0])
			continue
		case ')':
			open = '('
		case ']':
			open = '['
		case '}':
			open = '{'
		default:
			continue
		}
		o, innermost := opens.Close(open, maxUnwind)
		if !innermost {
			ok = false
		}
		if o >= 0 {
			match[o] = i
			match[i] = o
		}
	}
	if opens.Len() > 0 {
		ok = false
	}
	return match, ok
}

// MaxTextTokens caps the tokens Join renders, so that hostile nesting stays
// linear.
const MaxTextTokens = 256

// Join renders tokens (at most MaxTextTokens of them) as normalized text: no
// whitespace except one space between two tokens neither of which is
// punctuation (of kind punct), and no trailing comma before a closing ] or }
// (rustfmt and the Java formatters add one when a literal breaks over lines,
// as a test moved into a module or class is indented deeper), so
// reformatting never changes the result. A comma before ) stays: (x,) is a
// one-element tuple in Rust, not (x).
func Join(toks []Token, punct Kind) string {
	if len(toks) > MaxTextTokens {
		toks = toks[:MaxTextTokens]
	}
	var b strings.Builder
	for i, t := range toks {
		if t.Kind == punct && t.Text == "," && i+1 < len(toks) && toks[i+1].Kind == punct &&
			(toks[i+1].Text == "]" || toks[i+1].Text == "}") {
			continue
		}
		if i > 0 && toks[i-1].Kind != punct && t.Kind != punct {
			b.WriteByte(' ')
		}
		b.WriteString(t.Text)
	}
	return b.String()
}

// TopPuncts calls fn with the index and text of each punctuation token (of
// kind punct) in toks that stands outside brackets, other than the brackets
// themselves.
func TopPuncts(toks []Token, punct Kind, fn func(k int, text string)) {
	depth := 0
	for k, t := range toks {
		if t.Kind != punct {
			continue
		}
		switch t.Text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		default:
			if depth == 0 {
				fn(k, t.Text)
			}
		}
	}
}

// SplitArgs splits toks at the commas (of kind punct) outside nested
// brackets. No tokens give no parts; a trailing comma leaves an empty last
// part when emptyLast is set (Java counts it), none otherwise (Rust).
func SplitArgs(toks []Token, punct Kind, emptyLast bool) [][]Token {
	if len(toks) == 0 {
		return nil
	}
	var out [][]Token
	start := 0
	TopPuncts(toks, punct, func(k int, text string) {
		if text == "," {
			out = append(out, toks[start:k])
			start = k + 1
		}
	})
	if start < len(toks) || emptyLast {
		out = append(out, toks[start:])
	}
	return out
}

// Unquote is the value of the string literal s in Go syntax, which covers the
// escapes of Java's and Rust's plain strings, or s without its double quotes
// when it does not parse.
func Unquote(s string) string {
	if v, err := strconv.Unquote(s); err == nil {
		return v
	}
	return strings.Trim(s, `"`)
}

// Names passes each identifier (kind ident) of toks to add, in order,
// with member set when it follows one of the member punctuations (".",
// "::"): testscan.Namer for the languages lexed here.
func Names(toks []Token, ident, punct Kind, add func(line int, name string, member bool), member ...string) {
	for i, t := range toks {
		if t.Kind != ident {
			continue
		}
		m := false
		if i > 0 && toks[i-1].Kind == punct {
			for _, p := range member {
				m = m || toks[i-1].Text == p
			}
		}
		add(t.Line, t.Text, m)
	}
}

// ConstantIf respells an if's condition whose tokens (cond: `if`, then a
// name, `!` and a name, or either in parentheses) name a value bound once
// in the file (all's tokens, read only then) to a literal, as that literal with the name in a
// comment (`if (false /* SLOW */)`), for testscan.NeverHolds; "" when the
// condition is anything else or the name is bound otherwise: more than
// once, or written (`+=`, `++`). A binding is `NAME = LIT` ended by `;`,
// `,` or the end of its line, with an optional type between (`SLOW: bool
// = false`, `boolean slow = false`). ident and punct are the language's
// kinds; lit reports its single-token literals.
func ConstantIf(cond []Token, all func() []Token, ident, punct Kind, lit func(Token) bool) string {
	if len(cond) < 2 || cond[0].Kind != ident || cond[0].Text != "if" {
		return ""
	}
	body := cond[1:]
	open, close := "", ""
	if len(body) >= 3 && body[0].Kind == punct && body[0].Text == "(" && body[len(body)-1].Kind == punct && body[len(body)-1].Text == ")" {
		open, close, body = "(", ")", body[1:len(body)-1]
	}
	neg := ""
	if len(body) == 2 && body[0].Kind == punct && body[0].Text == "!" {
		neg, body = "!", body[1:]
	}
	if len(body) != 1 || body[0].Kind != ident {
		return ""
	}
	name := body[0].Text
	if name == "true" || name == "false" || name == "null" || name == "None" {
		return ""
	}
	value := boundLiteral(all(), name, ident, punct, lit)
	if value == "" {
		return ""
	}
	return "if " + open + neg + value + " /* " + name + " */" + close
}

// boundLiteral returns the literal name is bound to once in toks, "" when
// it is not.
func boundLiteral(toks []Token, name string, ident, punct Kind, lit func(Token) bool) string {
	text := func(i int) string {
		if i >= 0 && i < len(toks) {
			return toks[i].Text
		}
		return ""
	}
	bound, value := 0, ""
	for i, t := range toks {
		if t.Kind != ident || t.Text != name {
			continue
		}
		j := i + 1
		if text(j) == ":" { // a type annotation before the value
			for j = i + 2; j < len(toks) && j < i+8; j++ {
				if s := text(j); s == "=" || s == ";" || s == "," || s == ")" || s == "{" {
					break
				}
			}
		}
		switch next, prev := text(j), text(i-1); {
		case next == "=" && toks[j].Kind == punct:
			end := j + 2
			if end <= len(toks) && lit(toks[j+1]) && (end == len(toks) || text(end) == ";" || text(end) == "," || toks[end].Line > toks[j+1].Line) {
				bound++
				value = toks[j+1].Text
			} else {
				bound += 2
			}
		case next == "+=" || next == "-=" || next == "*=" || next == "/=" || next == "|=" || next == "&=" || next == "^=" ||
			next == "++" || next == "--" || prev == "++" || prev == "--":
			bound += 2
		}
	}
	if bound != 1 {
		return ""
	}
	return value
}
