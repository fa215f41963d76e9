// Package clex is the core the tokenizers of the C-family languages share
// (Java, Rust): the token, what a lexer returns, the byte classes and the
// walks over a token stream that do not depend on the language. Each
// language keeps its own lexer for what differs (Java's text blocks and $,
// Rust's raw strings, lifetimes and nested comments) and its own Kind
// constants, so that a token's kind keeps the value the language gave it.
package clex

import (
	"unicode"
	"unicode/utf8"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// Kind classifies a token; each language names its kinds.
type Kind uint8

// Token is one significant lexeme; comments are kept apart.
type Token struct {
	Kind Kind
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

// maxUnwind bounds how many unclosed openers a closer may skip to find its partner.
const maxUnwind = 8

// MatchGroups pairs every opening (, [ and { with its closer. match[i] is the index
// of the partner, or -1 when it has none; ok is false when anything was unpaired.
func MatchGroups(toks []Token, punct Kind) (match []int, ok bool) {
	match = make([]int, len(toks))
	ok = true
	var stack []int
	for i, t := range toks {
		match[i] = -1
		if t.Kind != punct || len(t.Text) != 1 {
			continue
		}
		var open byte
		switch t.Text[0] {
		case '(', '[', '{':
			stack = append(stack, i)
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
		k := len(stack) - 1
		for k >= 0 && k >= len(stack)-maxUnwind && toks[stack[k]].Text[0] != open {
			k--
		}
		if k < 0 || toks[stack[k]].Text[0] != open {
			ok = false
			continue
		}
		if k != len(stack)-1 {
			ok = false
		}
		match[stack[k]] = i
		match[i] = stack[k]
		stack = stack[:k]
	}
	if len(stack) > 0 {
		ok = false
	}
	return match, ok
}
