package python

import "strings"

// string lexes a string literal whose prefix starts at start and whose opening
// quote is at q.
func (lx *lexer) string(start, q int) {
	line := lx.line
	prefix := lx.src[start:q]
	end, ok := lx.scanString(q, hasPrefixLetter(prefix, 'f') || hasPrefixLetter(prefix, 't'))
	if !ok {
		lx.partial = true
	}
	lx.pos = end
	lx.countLines(start, end)
	lx.emit(tkString, start, end, line)
}

// countLines advances the line counter over the newlines inside a token.
func (lx *lexer) countLines(start, end int) {
	for i := start; i < end; i++ {
		if lx.src[i] == '\n' {
			lx.line++
			lx.lineOff = i + 1
		}
	}
}

// scanString returns the offset just past the string whose opening quote is at
// q, and whether it was terminated. An unterminated single-quoted string stops
// before the end of its line; an unterminated triple-quoted one is reduced to its
// opening quote so that the rest of the file is still read as code.
func (lx *lexer) scanString(q int, isF bool) (int, bool) {
	src := lx.src
	quote := src[q]
	qi := 0
	if quote == '\'' {
		qi = 1
	}
	triple := q+2 < len(src) && src[q+1] == quote && src[q+2] == quote
	if triple && lx.noTripleClose[qi] {
		return q + 3, false
	}
	i := q + 1
	if triple {
		i = q + 3
	}
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\\':
			i += 2
			continue
		case c == '\n':
			if !triple {
				return i, false
			}
		case c == quote:
			if !triple {
				return i + 1, true
			}
			if i+2 < len(src) && src[i+1] == quote && src[i+2] == quote {
				return i + 3, true
			}
		case isF && c == '{':
			if i+1 < len(src) && src[i+1] == '{' {
				i += 2
				continue
			}
			i = lx.scanFieldExpr(i+1, triple)
			continue
		}
		i++
	}
	if triple {
		lx.noTripleClose[qi] = true
		return q + 3, false
	}
	return len(src), false
}

// scanFieldExpr skips an f-string replacement field starting after its '{' and
// returns the offset after its closing '}' (or where the field was cut off by the
// end of a single-quoted string's line). Quotes inside start nested strings, as
// Python 3.12 allows.
func (lx *lexer) scanFieldExpr(i int, triple bool) int {
	src := lx.src
	lx.fdepth++
	defer func() { lx.fdepth-- }()
	if lx.fdepth > maxFStringNesting {
		lx.partial = true
		for i < len(src) && src[i] != '}' && src[i] != '\n' {
			i++
		}
		if i < len(src) && src[i] == '}' {
			i++
		}
		return i
	}
	depth := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n':
			if !triple {
				return i
			}
			i++
		case c == '\\':
			i += 2
		case c == '"' || c == '\'':
			end, ok := lx.scanString(i, false)
			if !ok {
				return end
			}
			i = end
		case isIdentStart(c):
			j := scanIdent(src, i)
			if j < len(src) && (src[j] == '"' || src[j] == '\'') && isStringPrefix(src[i:j]) {
				end, ok := lx.scanString(j, hasPrefixLetter(src[i:j], 'f') || hasPrefixLetter(src[i:j], 't'))
				if !ok {
					return end
				}
				j = end
			}
			i = j
		case c == '(' || c == '[' || c == '{':
			depth++
			i++
		case c == ')' || c == ']':
			if depth > 0 {
				depth--
			}
			i++
		case c == '}':
			if depth == 0 {
				return i + 1
			}
			depth--
			i++
		case c == ':' && depth == 0:
			return lx.scanFormatSpec(i+1, triple)
		case c == '!' && depth == 0 && i+1 < len(src) && src[i+1] != '=':
			// Conversion (!r, !s, !a), then an optional format spec.
			i++
		default:
			i++
		}
	}
	return i
}

// scanFormatSpec skips a format spec, which may hold nested fields, up to and
// including the '}' that closes the replacement field.
func (lx *lexer) scanFormatSpec(i int, triple bool) int {
	src := lx.src
	for i < len(src) {
		switch src[i] {
		case '}':
			return i + 1
		case '{':
			i = lx.scanFieldExpr(i+1, triple)
		case '\n':
			if !triple {
				return i
			}
			i++
		case '"', '\'':
			// The string's own closing quote ends it; leave it to the caller.
			return i
		default:
			i++
		}
	}
	return i
}

// isStringPrefix reports whether s is a valid string prefix: r, u, b, f, t and
// the two-letter combinations br, rb, fr, rf, tr, rt, in any case.
func isStringPrefix(s string) bool {
	switch len(s) {
	case 1:
		return strings.IndexByte("rRuUbBfFtT", s[0]) >= 0
	case 2:
		a, b := lower(s[0]), lower(s[1])
		if a > b {
			a, b = b, a
		}
		pair := string([]byte{a, b})
		return pair == "br" || pair == "fr" || pair == "rt"
	}
	return false
}

func hasPrefixLetter(prefix string, c byte) bool {
	for i := 0; i < len(prefix); i++ {
		if lower(prefix[i]) == c {
			return true
		}
	}
	return false
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
