package jsts

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ralph-gate/ralph-gate/internal/testscan/clex"
)

// The scanners of literal tokens: strings, template parts, numbers, regexes.

// lexString scans a '...' or "..." literal. An unescaped line break ends an
// unterminated string there, which bounds the damage of a stray quote.
func (l *lexer) lexString(q byte) {
	start := l.pos
	l.pos++
	escaped := false
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == q:
			l.pos++
			l.emitString(tkString, start, l.pos, start+1, l.pos-1, escaped)
			return
		case c == '\\':
			escaped = true
			l.pos += 2
			if l.pos <= len(l.src) && l.src[l.pos-1] == '\r' && l.pos < len(l.src) && l.src[l.pos] == '\n' {
				l.pos++
			}
			continue
		case c == '\n':
			// An unterminated string ends at the line end, which bounds the damage.
			l.broken = true
			end := l.pos
			if end > start+1 && l.src[end-1] == '\r' {
				end--
			}
			l.emitString(tkString, start, end, start+1, end, escaped)
			return
		}
		l.pos++
	}
	if l.pos > len(l.src) {
		l.pos = len(l.src)
	}
	l.broken = true
	l.emitString(tkString, start, l.pos, start+1, l.pos, escaped)
}

// emitString emits a string-like token whose value is src[vstart:vend],
// unescaped when it held a backslash.
func (l *lexer) emitString(kind tokKind, start, end, vstart, vend int, escaped bool) {
	if vstart > vend {
		vstart = vend
	}
	val := l.src[vstart:vend]
	if escaped {
		val = unescape(val)
	}
	l.emit(kind, start, end, val)
}

// lexTemplatePart scans template characters from l.pos, which follows the '`'
// (head) or the '}' that closed a substitution.
func (l *lexer) lexTemplatePart(start int, head bool) {
	vstart := l.pos
	escaped := false
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == '\\':
			escaped = true
			l.pos += 2
			continue
		case c == '`':
			l.pos++
			kind := tkTemplateTail
			if head {
				kind = tkTemplate
			}
			l.emitString(kind, start, l.pos, vstart, l.pos-1, escaped)
			return
		case c == '$' && l.pos+1 < len(l.src) && l.src[l.pos+1] == '{':
			l.pos += 2
			kind := tkTemplateMiddle
			if head {
				kind = tkTemplateHead
			}
			l.emitString(kind, start, l.pos, vstart, l.pos-2, escaped)
			l.frames = append(l.frames, frame{kind: frTemplate})
			return
		}
		l.pos++
	}
	l.pos = len(l.src)
	l.broken = true
	kind := tkTemplateTail
	if head {
		kind = tkTemplate
	}
	l.emitString(kind, start, l.pos, vstart, l.pos, escaped)
}

// lexNumber scans a numeric literal: decimal, exponent, hex/octal/binary,
// separators and the bigint suffix.
func (l *lexer) lexNumber() {
	start := l.pos
	hex := l.pos+1 < len(l.src) && l.src[l.pos] == '0' && strings.IndexByte("xXbBoO", l.src[l.pos+1]) >= 0
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		if clex.IsDigit(c) || ident.StartByte(c) || c == '.' {
			l.pos++
			continue
		}
		if (c == '+' || c == '-') && !hex && (l.src[l.pos-1] == 'e' || l.src[l.pos-1] == 'E') {
			l.pos++
			continue
		}
		break
	}
	l.emit(tkNumber, start, l.pos, "")
}

// lexRegex scans a regex literal at l.pos ('/'). A regex cannot span lines, so a
// newline before the closing '/' means this was division after all.
func (l *lexer) lexRegex() bool {
	start := l.pos
	i := l.pos + 1
	if i < len(l.src) && (l.src[i] == '/' || l.src[i] == '*') || start < l.regexFailUntil {
		return false
	}
	inClass, sawClass := false, false
	fail := func() bool {
		if !sawClass {
			l.regexFailUntil = i
		}
		return false
	}
	for i < len(l.src) {
		c := l.src[i]
		switch {
		case c == '\n' || c == '\r' || i-start > maxRegexLen:
			return fail()
		case c == '\\':
			i += 2
			continue
		case c == '[':
			inClass, sawClass = true, true
		case c == ']':
			inClass = false
		case c == '/' && !inClass:
			i++
			for i < len(l.src) && (ident.StartByte(l.src[i]) || clex.IsDigit(l.src[i])) {
				i++
			}
			l.pos = i
			l.emit(tkRegex, start, i, "")
			return true
		}
		i++
	}
	return fail()
}

// maxRegexLen bounds a regex literal, which keeps a long line full of '/'
// characters from being rescanned for every one of them.
const maxRegexLen = 2048

// unescape resolves the escapes of a JS string or template literal body.
func unescape(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case '0':
			b.WriteByte(0)
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		case '\n':
		case 'x':
			if i+2 < len(s) {
				if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
					b.WriteRune(rune(v))
					i += 2
					continue
				}
			}
			b.WriteByte(e)
		case 'u':
			r, n := unicodeEscape(s[i+1:])
			if n == 0 {
				b.WriteByte(e)
				continue
			}
			b.WriteRune(r)
			i += n
		default:
			b.WriteByte(e)
		}
	}
	return b.String()
}

// unicodeEscape decodes the text after "\u": XXXX or {X...}. n is the number of
// bytes consumed, 0 when the escape is malformed.
func unicodeEscape(s string) (rune, int) {
	if strings.HasPrefix(s, "{") {
		end := strings.IndexByte(s, '}')
		if end < 2 || end > 9 {
			return 0, 0
		}
		v, err := strconv.ParseUint(s[1:end], 16, 32)
		if err != nil || v > utf8.MaxRune {
			return 0, 0
		}
		return rune(v), end + 1
	}
	if len(s) < 4 {
		return 0, 0
	}
	v, err := strconv.ParseUint(s[:4], 16, 16)
	if err != nil {
		return 0, 0
	}
	return rune(v), 4
}
