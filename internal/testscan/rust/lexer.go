package rust

import (
	"strings"
	"unicode/utf8"

	"github.com/ralph-gate/ralph-gate/internal/testscan/clex"
)

// tokKind classifies a token (the kinds are Rust's own values).
type tokKind = clex.Kind

const (
	tkIdent    tokKind = iota + 1 // identifiers and keywords, r#raw identifiers
	tkLifetime                    // 'a, 'static
	tkNumber                      // numeric literals with their suffix
	tkString                      // "..", r#".."#, b"..", br"..", c".."
	tkChar                        // 'c', b'c'
	tkPunct                       // operators and separators
)

// token is one significant lexeme; comments are kept apart.
type token = clex.Token

// comment is one line, block or doc comment.
type comment struct {
	text string // without the delimiters, trimmed
	line int
	off  int // index of the first token after the comment
}

// lexResult is the token stream of a file plus what the lexer noticed.
type lexResult struct {
	toks     []token
	comments []comment
	broken   bool // an unterminated literal or comment, or a stray byte
}

// multiOps are the multi-character operators kept whole, longest first. '>' is
// never combined with another '>' so that closing generics stay separate.
var multiOps = []string{"..=", "...", "<<=", "::", "->", "=>", "==", "!=", "<=", ">=",
	"&&", "||", "..", "+=", "-=", "*=", "/=", "%=", "^=", "&=", "|=", "<<"}

// lex tokenizes Rust source. It never fails: unknown bytes become punctuation and
// unterminated constructs run to the end of the file with broken set.
func lex(src []byte) lexResult {
	s := string(src)
	var r lexResult
	r.toks = make([]token, 0, len(s)/4)
	line := 1
	i := 0
	if strings.HasPrefix(s, "#!") && !strings.HasPrefix(strings.TrimLeft(s[2:], " \t"), "[") {
		i = strings.IndexByte(s, '\n') // a shebang line
		if i < 0 {
			i = len(s)
		}
	}
	emit := func(kind tokKind, end int) {
		text := s[i:end]
		r.toks = append(r.toks, token{Kind: kind, Off: int32(i), Text: text, Line: line})
		if kind == tkString {
			line += strings.Count(text, "\n")
		}
		i = end
	}
	for i < len(s) {
		c := s[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			end := strings.IndexByte(s[i:], '\n')
			if end < 0 {
				end = len(s) - i
			}
			text := strings.TrimLeft(s[i+2:i+end], "/!")
			r.comments = append(r.comments, comment{text: strings.TrimSpace(text), line: line, off: len(r.toks)})
			i += end
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			end, ok := scanBlockComment(s, i+2)
			if !ok {
				r.broken = true
			}
			body := s[i+2 : end]
			body = strings.TrimSuffix(body, "*/")
			r.comments = append(r.comments, comment{text: strings.TrimSpace(strings.TrimLeft(body, "*!")), line: line, off: len(r.toks)})
			line += strings.Count(s[i:end], "\n")
			i = end
		case c == '"':
			end, ok := scanString(s, i+1)
			r.broken = r.broken || !ok
			emit(tkString, end)
		case c == '\'':
			kind, end, ok := scanQuote(s, i+1)
			r.broken = r.broken || !ok
			emit(kind, end)
		case clex.IsDigit(c):
			afterDot := len(r.toks) > 0 && r.toks[len(r.toks)-1].Text == "."
			emit(tkNumber, scanNumber(s, i, afterDot))
		case ident.Start(s, i):
			if kind, end, ok, found := scanPrefixed(s, i); found {
				r.broken = r.broken || !ok
				emit(kind, end)
				continue
			}
			end := i
			if strings.HasPrefix(s[i:], "r#") && i+2 < len(s) && ident.Start(s, i+2) {
				end = i + 2 // a raw identifier
			}
			for end < len(s) && ident.Part(s, end) {
				_, size := utf8.DecodeRuneInString(s[end:])
				end += size
			}
			emit(tkIdent, end)
		default:
			n := 1
			for _, op := range multiOps {
				if op[0] != c {
					continue
				}
				if strings.HasPrefix(s[i:], op) {
					n = len(op)
					break
				}
			}
			if c >= utf8.RuneSelf {
				_, n = utf8.DecodeRuneInString(s[i:])
				r.broken = true
			}
			emit(tkPunct, i+n)
		}
	}
	return r
}

// scanPrefixed reads literals that start like identifiers: raw strings r"..",
// r#".."#, byte strings b"..", br"..", byte chars b'x', C strings c"..", cr"..".
func scanPrefixed(s string, i int) (kind tokKind, end int, ok, found bool) {
	j := i
	if s[j] == 'b' || s[j] == 'c' {
		j++
		if s[i] == 'b' && j < len(s) && s[j] == '\'' {
			kind, end, ok = scanQuote(s, j+1)
			return tkChar, end, ok && kind == tkChar, kind == tkChar
		}
	}
	if j < len(s) && s[j] == '"' {
		end, ok = scanString(s, j+1)
		return tkString, end, ok, true
	}
	if j < len(s) && s[j] == 'r' {
		j++
		hashes := 0
		for j < len(s) && s[j] == '#' {
			hashes++
			j++
		}
		if j < len(s) && s[j] == '"' {
			closer := "\"" + strings.Repeat("#", hashes)
			k := strings.Index(s[j+1:], closer)
			if k < 0 {
				return tkString, len(s), false, true
			}
			return tkString, j + 1 + k + len(closer), true, true
		}
	}
	return 0, 0, false, false
}

// scanString returns the end of a string whose content starts at i.
func scanString(s string, i int) (int, bool) {
	for i < len(s) {
		switch s[i] {
		case '\\':
			i += 2
		case '"':
			return i + 1, true
		default:
			i++
		}
	}
	return len(s), false
}

// scanQuote reads what follows a single quote at i-1: a char literal ('a', '\n',
// '\u{1F600}') or a lifetime ('a, 'static).
func scanQuote(s string, i int) (tokKind, int, bool) {
	if i >= len(s) {
		return tkPunct, i, false
	}
	if s[i] == '\\' {
		for k := i + 1; k < len(s) && k < i+16; k++ {
			if s[k] == '\'' && k > i+1 {
				return tkChar, k + 1, true
			}
			if s[k] == '\n' {
				break
			}
		}
		return tkPunct, i, false
	}
	_, size := utf8.DecodeRuneInString(s[i:])
	if i+size < len(s) && s[i+size] == '\'' {
		return tkChar, i + size + 1, true
	}
	if ident.Start(s, i) {
		end := i
		for end < len(s) && ident.Part(s, end) {
			_, n := utf8.DecodeRuneInString(s[end:])
			end += n
		}
		return tkLifetime, end, true
	}
	return tkPunct, i, false
}

// scanBlockComment returns the end of a (nestable) block comment whose content
// starts at i.
func scanBlockComment(s string, i int) (int, bool) {
	depth := 1
	for i < len(s) {
		switch {
		case strings.HasPrefix(s[i:], "/*"):
			depth++
			i += 2
		case strings.HasPrefix(s[i:], "*/"):
			depth--
			i += 2
			if depth == 0 {
				return i, true
			}
		default:
			i++
		}
	}
	return len(s), false
}

// scanNumber returns the end of a number literal. After a '.', only the integer
// part is read, so tuple.0.1 stays a field access.
func scanNumber(s string, i int, afterDot bool) int {
	if strings.HasPrefix(s[i:], "0x") || strings.HasPrefix(s[i:], "0o") || strings.HasPrefix(s[i:], "0b") {
		i += 2
		for i < len(s) && (clex.IsHex(s[i]) || s[i] == '_' || ident.StartByte(s[i])) {
			i++
		}
		return i
	}
	for i < len(s) && (clex.IsDigit(s[i]) || s[i] == '_') {
		i++
	}
	if afterDot {
		return i
	}
	if i+1 < len(s) && s[i] == '.' && clex.IsDigit(s[i+1]) {
		i++
		for i < len(s) && (clex.IsDigit(s[i]) || s[i] == '_') {
			i++
		}
	} else if i < len(s) && s[i] == '.' && !(i+1 < len(s) && (s[i+1] == '.' || ident.StartByte(s[i+1]))) {
		i++ // "1." is a float; "1..2" and "1.max(2)" are not
		return i
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		k := i + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k < len(s) && clex.IsDigit(s[k]) {
			i = k
			for i < len(s) && (clex.IsDigit(s[i]) || s[i] == '_') {
				i++
			}
		}
	}
	for i < len(s) && (ident.StartByte(s[i]) || clex.IsDigit(s[i])) {
		i++ // a type suffix: u8, f64, usize
	}
	return i
}

// ident classifies identifiers.
var ident = clex.Ident{Extra: ""}

// matchGroups pairs every opening (, [ and { with its closer (clex.MatchGroups).
func matchGroups(toks []token) (match []int, ok bool) { return clex.MatchGroups(toks, tkPunct) }
