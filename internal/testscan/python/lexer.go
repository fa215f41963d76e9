package python

import "strings"

// tokKind classifies a token.
type tokKind uint8

const (
	tkName tokKind = iota
	tkNumber
	tkString
	tkOp
	tkComment
	tkNewline // end of a logical line
	tkIndent
	tkDedent
)

// token is a span of the source. Text is recovered from the source by offsets so
// that a token costs a few words and no allocation.
type token struct {
	kind tokKind
	line int32 // 1-based line of the first character
	col  int32 // 0-based column (in bytes) of the first character
	off  int32 // byte offset of the first character
	text string
}

// lastLine is the line of the token's last character (strings span lines).
func (t token) lastLine() int {
	if t.kind != tkString {
		return int(t.line)
	}
	return int(t.line) + strings.Count(t.text, "\n")
}

// end is the byte offset just past the token.
func (t token) end() int32 { return t.off + int32(len(t.text)) }

// maxFStringNesting bounds recursion through f-string replacement fields so that
// hostile input cannot exhaust the stack.
const maxFStringNesting = 64

// lexer turns Python source into tokens. It follows the language's tokenizer
// (tokenize.py) closely but never fails: unterminated strings end at the end of
// the line (or file), stray closing brackets are ignored, and inconsistent
// dedents are repaired; each repair sets partial.
type lexer struct {
	src      string
	pos      int
	line     int
	lineOff  int // offset of the first byte of the current line
	toks     []token
	comments []token
	indents  []int
	depth    int // bracket nesting
	partial  bool
	// noTripleClose remembers quote kinds (index 0 for ", 1 for ') whose triple
	// string ran to the end of the file, so later ones are not rescanned.
	noTripleClose [2]bool
	fdepth        int
}

// lex tokenizes src. The result ends with a NEWLINE (when the last line had
// tokens) and the DEDENTs that close open blocks.
func lex(src string) (toks, comments []token, partial bool) {
	lx := &lexer{src: src, line: 1, indents: []int{0}}
	lx.toks = make([]token, 0, len(src)/3+8)
	lx.run()
	return lx.toks, lx.comments, lx.partial
}

func (lx *lexer) emit(kind tokKind, start, end int, line int) {
	lx.toks = append(lx.toks, token{
		kind: kind, line: int32(line), col: int32(start - lx.lineOffFor(start, line)),
		off: int32(start), text: lx.src[start:end],
	})
}

// lineOffFor returns the offset of the start of the line holding start. Tokens
// that span lines are emitted after lx.lineOff moved, so search backwards then.
func (lx *lexer) lineOffFor(start, line int) int {
	if line == lx.line {
		return lx.lineOff
	}
	i := start
	for i > 0 && lx.src[i-1] != '\n' {
		i--
	}
	return i
}

// lastIsLineEnd reports whether no token was emitted since the last logical line
// ended.
func (lx *lexer) lastIsLineEnd() bool {
	if len(lx.toks) == 0 {
		return true
	}
	switch lx.toks[len(lx.toks)-1].kind {
	case tkNewline, tkIndent, tkDedent:
		return true
	}
	return false
}

func (lx *lexer) newline(at int) {
	if lx.depth == 0 && !lx.lastIsLineEnd() {
		lx.toks = append(lx.toks, token{kind: tkNewline, line: int32(lx.line), off: int32(at), col: int32(at - lx.lineOff)})
	}
	lx.line++
	lx.lineOff = at + 1
}

func (lx *lexer) run() {
	src := lx.src
	atLineStart := true
	for lx.pos < len(src) {
		if atLineStart {
			atLineStart = false
			if lx.depth > 0 && lx.statementKeywordAhead() {
				// An unclosed bracket cannot hold a statement keyword: recover by
				// closing the logical line here.
				lx.partial = true
				lx.depth = 0
				if !lx.lastIsLineEnd() {
					lx.toks = append(lx.toks, token{kind: tkNewline, line: int32(lx.line - 1), off: int32(lx.pos)})
				}
			}
			if lx.depth == 0 {
				lx.indentation()
				if lx.pos >= len(src) {
					break
				}
			}
		}
		c := src[lx.pos]
		switch {
		case c == '\n':
			lx.newline(lx.pos)
			lx.pos++
			atLineStart = true
		case c == ' ' || c == '\t' || c == '\f' || c == '\r':
			lx.pos++
		case c == '#':
			start := lx.pos
			for lx.pos < len(src) && src[lx.pos] != '\n' {
				lx.pos++
			}
			end := lx.pos
			if end > start && src[end-1] == '\r' {
				end--
			}
			lx.comments = append(lx.comments, token{kind: tkComment, line: int32(lx.line), col: int32(start - lx.lineOff), off: int32(start), text: src[start:end]})
		case c == '\\':
			n := lx.pos + 1
			if n < len(src) && src[n] == '\r' {
				n++
			}
			if n < len(src) && src[n] == '\n' {
				lx.line++
				lx.lineOff = n + 1
				lx.pos = n + 1
				continue
			}
			lx.partial = true
			lx.pos++
		case c == '"' || c == '\'':
			lx.string(lx.pos, lx.pos)
		case isDigit(c) || (c == '.' && lx.pos+1 < len(src) && isDigit(src[lx.pos+1])):
			start := lx.pos
			lx.pos = scanNumber(src, lx.pos)
			lx.emit(tkNumber, start, lx.pos, lx.line)
		case isIdentStart(c):
			start := lx.pos
			lx.pos = scanIdent(src, lx.pos)
			if lx.pos < len(src) && (src[lx.pos] == '"' || src[lx.pos] == '\'') && isStringPrefix(src[start:lx.pos]) {
				lx.string(start, lx.pos)
				continue
			}
			lx.emit(tkName, start, lx.pos, lx.line)
		default:
			lx.operator()
		}
	}
	if lx.depth > 0 {
		lx.partial = true
		lx.depth = 0
	}
	lx.newline(len(src))
	for len(lx.indents) > 1 {
		lx.indents = lx.indents[:len(lx.indents)-1]
		lx.toks = append(lx.toks, token{kind: tkDedent, line: int32(lx.line), off: int32(len(src))})
	}
}

// indentation measures the indentation of a new line at bracket depth 0 and
// emits INDENT/DEDENT tokens unless the line is blank or holds only a comment.
func (lx *lexer) indentation() {
	src := lx.src
	col := 0
	i := lx.pos
	for i < len(src) {
		switch src[i] {
		case ' ':
			col++
		case '\t':
			col = (col/8 + 1) * 8
		case '\f':
			col = 0
		default:
			goto done
		}
		i++
	}
done:
	lx.pos = i
	if i >= len(src) || src[i] == '\n' || src[i] == '#' || (src[i] == '\r' && (i+1 >= len(src) || src[i+1] == '\n')) {
		return
	}
	top := lx.indents[len(lx.indents)-1]
	switch {
	case col > top:
		if len(lx.toks) == 0 || lx.toks[len(lx.toks)-1].kind != tkNewline || !lx.lastLineIsHeader() {
			// Python rejects an indent that no block header asked for; a
			// fragment starting mid-block has one.
			lx.partial = true
		}
		lx.indents = append(lx.indents, col)
		lx.toks = append(lx.toks, token{kind: tkIndent, line: int32(lx.line), off: int32(i)})
	case col < top:
		for len(lx.indents) > 1 && col < lx.indents[len(lx.indents)-1] {
			lx.indents = lx.indents[:len(lx.indents)-1]
			lx.toks = append(lx.toks, token{kind: tkDedent, line: int32(lx.line), off: int32(i)})
		}
		if col > lx.indents[len(lx.indents)-1] {
			// Dedent to a column no enclosing block uses: treat it as a new block
			// level so the statements keep their order and nesting stays bounded.
			lx.partial = true
			lx.indents = append(lx.indents, col)
			lx.toks = append(lx.toks, token{kind: tkIndent, line: int32(lx.line), off: int32(i)})
		}
	}
}

// lastLineIsHeader reports whether the logical line just ended with ':'.
func (lx *lexer) lastLineIsHeader() bool {
	n := len(lx.toks)
	if n < 2 {
		return false
	}
	t := lx.toks[n-2]
	return t.kind == tkOp && t.text == ":"
}

// statementKeywords can only start a statement, never continue an expression, so
// meeting one at the start of a line inside brackets means a bracket was left open.
var statementKeywords = map[string]bool{
	"def": true, "class": true, "return": true, "import": true, "raise": true,
	"assert": true, "with": true, "try": true, "except": true, "finally": true,
	"while": true, "pass": true, "break": true, "continue": true, "global": true,
	"nonlocal": true, "del": true, "elif": true,
}

func (lx *lexer) statementKeywordAhead() bool {
	i := lx.pos
	for i < len(lx.src) && (lx.src[i] == ' ' || lx.src[i] == '\t') {
		i++
	}
	if i == lx.pos && i+1 < len(lx.src) && lx.src[i] == '@' && isIdentStart(lx.src[i+1]) {
		// A decorator in column 0; an "@" continuing a matrix product is
		// indented under its expression.
		return true
	}
	j := scanIdent(lx.src, i)
	if j == i || !statementKeywords[lx.src[i:j]] {
		return false
	}
	return j >= len(lx.src) || !isIdentChar(lx.src[j])
}

var threeCharOps = []string{"**=", "//=", ">>=", "<<=", "..."}

var twoCharOps = map[string]bool{
	"**": true, "//": true, ">>": true, "<<": true, "<=": true, ">=": true, "==": true,
	"!=": true, "->": true, "+=": true, "-=": true, "*=": true, "/=": true, "%=": true,
	"&=": true, "|=": true, "^=": true, "@=": true, ":=": true, "<>": true,
}

func (lx *lexer) operator() {
	src, start := lx.src, lx.pos
	for _, op := range threeCharOps {
		if len(src)-start >= 3 && src[start:start+3] == op {
			lx.pos += 3
			lx.emit(tkOp, start, lx.pos, lx.line)
			return
		}
	}
	if len(src)-start >= 2 && twoCharOps[src[start:start+2]] {
		lx.pos += 2
		lx.emit(tkOp, start, lx.pos, lx.line)
		return
	}
	c := src[start]
	lx.pos++
	switch c {
	case '(', '[', '{':
		lx.depth++
	case ')', ']', '}':
		if lx.depth > 0 {
			lx.depth--
		} else {
			lx.partial = true
		}
	case '$', '?', '`', '!':
		lx.partial = true
	}
	lx.emit(tkOp, start, lx.pos, lx.line)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80
}

func isIdentChar(c byte) bool { return isIdentStart(c) || isDigit(c) }

func scanIdent(src string, i int) int {
	for i < len(src) && isIdentChar(src[i]) {
		i++
	}
	return i
}

// scanNumber returns the end of the numeric literal at i: decimal, hex, octal or
// binary integers, floats with exponents, imaginary suffixes, underscores.
func scanNumber(src string, i int) int {
	if src[i] == '0' && i+1 < len(src) && strings.IndexByte("xXoObB", src[i+1]) >= 0 {
		i += 2
		for i < len(src) && (isHexDigit(src[i]) || src[i] == '_') {
			i++
		}
		return i
	}
	for i < len(src) && (isDigit(src[i]) || src[i] == '_') {
		i++
	}
	if i < len(src) && src[i] == '.' {
		i++
		for i < len(src) && (isDigit(src[i]) || src[i] == '_') {
			i++
		}
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		j := i + 1
		if j < len(src) && (src[j] == '+' || src[j] == '-') {
			j++
		}
		if j < len(src) && isDigit(src[j]) {
			i = j
			for i < len(src) && (isDigit(src[i]) || src[i] == '_') {
				i++
			}
		}
	}
	if i < len(src) && (src[i] == 'j' || src[i] == 'J' || src[i] == 'l' || src[i] == 'L') {
		i++
	}
	return i
}

func isHexDigit(c byte) bool {
	return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}
