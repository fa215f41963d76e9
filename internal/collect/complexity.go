package collect

import "strings"

var (
	cLikeDecisions  = map[string]bool{"if": true, "for": true, "while": true, "case": true, "catch": true}
	pythonDecisions = map[string]bool{"if": true, "elif": true, "for": true, "while": true, "except": true, "case": true, "and": true, "or": true}
)

// Complexity counts the decision points of one source file, by its extension
// (".go", ".ts", ".py"...; 0 for other languages): the decision keywords and
// the && and || operators outside comments and string literals (see the
// package doc for the rules and their limits).
func Complexity(src []byte, ext string) int {
	ext = strings.ToLower(ext)
	switch sourceExts[ext] {
	case langCLike:
		s := &cScanner{src: src, rust: ext == ".rs", java: ext == ".java", goRaw: ext == ".go"}
		s.code(false)
		return s.n
	case langPython:
		return pythonComplexity(src)
	}
	return 0
}

// cScanner scans the C-like languages. Template literals' ${} parts are code
// and scanned as such, nested to any depth.
type cScanner struct {
	src               []byte
	i, n              int
	rust, java, goRaw bool
	nesting           int // template literals open, bounded by maxNesting
}

// maxNesting bounds the nesting of template literals the scanner follows, so
// that hostile input cannot exhaust the stack; deeper ones are skipped as text.
const maxNesting = 64

// code scans code until the end of input or, when inBrace is set, the "}"
// that closes a template literal's "${".
func (s *cScanner) code(inBrace bool) {
	depth := 0
	for s.i < len(s.src) {
		c := s.src[s.i]
		switch {
		case c == '/' && s.peek(1) == '/':
			s.skipTo('\n')
		case c == '/' && s.peek(1) == '*':
			s.blockComment()
		case c == '"':
			if s.java && s.peek(1) == '"' && s.peek(2) == '"' {
				s.i += 3
				s.skipPast(`"""`)
			} else {
				s.quoted('"', false)
			}
		case c == '\'':
			s.quoted('\'', true)
		case c == '`':
			s.i++
			if s.goRaw {
				s.skipPast("`")
			} else {
				s.template()
			}
		case (c == '&' || c == '|') && s.peek(1) == c:
			s.n++
			s.i += 2
		case c == '{':
			depth++
			s.i++
		case c == '}':
			s.i++
			if inBrace {
				if depth == 0 {
					return
				}
				depth--
			} else if depth > 0 {
				depth--
			}
		case isWordByte(c):
			start := s.i
			for s.i < len(s.src) && isWordByte(s.src[s.i]) {
				s.i++
			}
			word := string(s.src[start:s.i])
			if s.rust && s.rawString(word) {
				continue
			}
			if cLikeDecisions[word] {
				s.n++
			}
		default:
			s.i++
		}
	}
}

func (s *cScanner) peek(k int) byte {
	if s.i+k < len(s.src) {
		return s.src[s.i+k]
	}
	return 0
}

// skipTo moves to the next c (or the end), leaving it unread.
func (s *cScanner) skipTo(c byte) {
	for s.i < len(s.src) && s.src[s.i] != c {
		s.i++
	}
}

// skipPast moves past the next occurrence of end (or to the end).
func (s *cScanner) skipPast(end string) {
	if k := strings.Index(string(s.src[s.i:]), end); k >= 0 {
		s.i += k + len(end)
		return
	}
	s.i = len(s.src)
}

// blockComment skips /* ... */, nested in Rust.
func (s *cScanner) blockComment() {
	s.i += 2
	depth := 1
	for s.i < len(s.src) {
		switch {
		case s.src[s.i] == '*' && s.peek(1) == '/':
			s.i += 2
			if depth--; depth == 0 {
				return
			}
		case s.rust && s.src[s.i] == '/' && s.peek(1) == '*':
			s.i += 2
			depth++
		default:
			s.i++
		}
	}
}

// quoted skips a string or character literal with backslash escapes. With
// sameLine, a quote that is not closed on its line is not a literal (a Rust
// lifetime such as 'a) and only the quote is skipped.
func (s *cScanner) quoted(q byte, sameLine bool) {
	j := s.i + 1
	for j < len(s.src) {
		switch s.src[j] {
		case '\\':
			j += 2
			continue
		case q:
			s.i = j + 1
			return
		case '\n':
			if sameLine {
				s.i++
				return
			}
		}
		j++
	}
	if sameLine {
		s.i++
		return
	}
	s.i = len(s.src)
}

// template skips a template literal's text, scanning its ${} parts as code.
func (s *cScanner) template() {
	for s.i < len(s.src) {
		switch c := s.src[s.i]; {
		case c == '\\':
			s.i += 2
		case c == '`':
			s.i++
			return
		case c == '$' && s.peek(1) == '{' && s.nesting < maxNesting:
			s.i += 2
			s.nesting++
			s.code(true)
			s.nesting--
		default:
			s.i++
		}
	}
	s.i = min(s.i, len(s.src))
}

// rawString skips a Rust raw string (r"..", r#".."#, br"..") whose prefix is
// the word just read, and reports whether there was one.
func (s *cScanner) rawString(word string) bool {
	if word != "r" && word != "br" {
		return false
	}
	j := s.i
	hashes := 0
	for j < len(s.src) && s.src[j] == '#' {
		hashes++
		j++
	}
	if j >= len(s.src) || s.src[j] != '"' {
		return false
	}
	s.i = j + 1
	s.skipPast(`"` + strings.Repeat("#", hashes))
	return true
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// pythonComplexity scans Python: # comments, single- and triple-quoted
// strings with any prefix (r, b, f, u and their pairs; f-string fields are
// skipped with the string).
func pythonComplexity(src []byte) int {
	n := 0
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '"' || c == '\'':
			i = skipPythonString(src, i)
		case isWordByte(c):
			start := i
			for i < len(src) && isWordByte(src[i]) {
				i++
			}
			word := string(src[start:i])
			if i < len(src) && (src[i] == '"' || src[i] == '\'') && isStringPrefix(word) {
				i = skipPythonString(src, i)
				continue
			}
			if pythonDecisions[word] {
				n++
			}
		default:
			i++
		}
	}
	return n
}

func isStringPrefix(w string) bool {
	if len(w) > 2 {
		return false
	}
	for _, c := range strings.ToLower(w) {
		if !strings.ContainsRune("rbfu", c) {
			return false
		}
	}
	return true
}

// skipPythonString returns the index past the string starting at src[i].
func skipPythonString(src []byte, i int) int {
	q := src[i]
	if i+2 < len(src) && src[i+1] == q && src[i+2] == q {
		end := string([]byte{q, q, q})
		for j := i + 3; j < len(src); j++ {
			if src[j] == '\\' {
				j++
				continue
			}
			if strings.HasPrefix(string(src[j:min(j+3, len(src))]), end) {
				return j + 3
			}
		}
		return len(src)
	}
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case q:
			return j + 1
		case '\n':
			return j // an unterminated string ends at its line
		}
	}
	return len(src)
}
