package jsts

import (
	"strings"
	"unicode/utf8"

	"github.com/ralph-gate/ralph-gate/internal/testscan/clex"
)

// jsxStartsAt reports whether the text at i can begin a JSX element name (or
// close a fragment opener "<>").
func (l *lexer) jsxStartsAt(i int) bool {
	if i >= len(l.src) {
		return false
	}
	c := l.src[i]
	if c == '>' || ident.StartByte(c) {
		return true
	}
	if c >= utf8.RuneSelf {
		r, _ := utf8.DecodeRuneInString(l.src[i:])
		return isIdentRune(r)
	}
	return false
}

// lexJSXTag reads one unit inside <tag ...> or </tag>. Anything that cannot be
// part of a tag abandons JSX (the frame is dropped and normal lexing resumes),
// which is how TSX generics such as <T,>(x) => x get through.
func (l *lexer) lexJSXTag() {
	f := l.top()
	if l.skipSpaceAndComments() {
		return
	}
	start := l.pos
	c := l.src[l.pos]
	switch {
	case c == '>':
		l.pos++
		l.emit(tkPunct, start, l.pos, "")
		if f.kind == frJSXClose {
			l.pop()
			if t := l.top(); t != nil && t.kind == frJSXChildren {
				l.pop()
			}
			return
		}
		f.kind = frJSXChildren
	case c == '/' && f.kind == frJSXTag && l.pos+1 < len(l.src) && l.src[l.pos+1] == '>':
		l.pos += 2
		l.emit(tkPunct, start, l.pos, "")
		l.pop()
	case c == '{' && f.kind == frJSXTag:
		l.pos++
		l.emit(tkPunct, start, l.pos, "")
		l.frames = append(l.frames, frame{kind: frJSXExpr})
	case (c == '"' || c == '\'') && f.kind == frJSXTag:
		end := strings.IndexByte(l.src[l.pos+1:], c)
		if end < 0 {
			l.broken = true
			l.pos = len(l.src)
			l.emit(tkString, start, l.pos, l.src[start+1:])
			return
		}
		l.pos += end + 2
		l.emit(tkString, start, l.pos, l.src[start+1:l.pos-1])
	case c == '=' && f.kind == frJSXTag:
		l.pos++
		l.emit(tkPunct, start, l.pos, "")
	case l.jsxStartsAt(l.pos) && c != '>':
		for l.pos < len(l.src) {
			b := l.src[l.pos]
			if ident.StartByte(b) || clex.IsDigit(b) || b == '-' || b == ':' || b == '.' {
				l.pos++
				continue
			}
			if b >= utf8.RuneSelf {
				r, size := utf8.DecodeRuneInString(l.src[l.pos:])
				if isIdentRune(r) {
					l.pos += size
					continue
				}
			}
			break
		}
		l.emit(tkIdent, start, l.pos, "")
		f.names++
		if f.names == 2 && l.src[start:l.pos] == "extends" {
			l.pop() // <T extends U>: a TSX generic, not an element
		}
	default:
		l.pop()
	}
}

// lexJSXChildren reads JSX text up to the next '{' or tag, so that text such as
// <p>don't</p> never opens a string literal.
func (l *lexer) lexJSXChildren() {
	start := l.pos
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		if c == '{' {
			break
		}
		if c == '<' && l.pos+1 < len(l.src) && (l.src[l.pos+1] == '/' || l.jsxStartsAt(l.pos+1)) {
			break
		}
		l.pos++
	}
	if text := strings.Join(strings.Fields(l.src[start:l.pos]), " "); text != "" {
		l.emit(tkJSXText, start, l.pos, text)
	}
	if l.pos >= len(l.src) {
		l.broken = true
		return
	}
	start = l.pos
	switch {
	case l.src[l.pos] == '{':
		l.pos++
		l.emit(tkPunct, start, l.pos, "")
		l.frames = append(l.frames, frame{kind: frJSXExpr})
	case l.src[l.pos+1] == '/':
		l.pos += 2
		l.emit(tkPunct, start, l.pos, "")
		l.frames = append(l.frames, frame{kind: frJSXClose})
	default:
		l.pos++
		l.emit(tkPunct, start, l.pos, "")
		l.frames = append(l.frames, frame{kind: frJSXTag})
	}
}
