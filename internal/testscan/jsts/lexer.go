package jsts

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ralph-gate/ralph-gate/internal/testscan/clex"
)

// tokKind classifies a token (the kinds are JavaScript's own values).
type tokKind = clex.Kind

const (
	tkIdent          tokKind = iota + 1 // identifiers and keywords, #private names
	tkNumber                            // numeric literals, including bigint
	tkString                            // '...' and "..." (and JSX attribute strings)
	tkTemplate                          // a template literal without substitutions
	tkTemplateHead                      // `...${
	tkTemplateMiddle                    // }...${
	tkTemplateTail                      // }...`
	tkRegex                             // /.../flags
	tkPunct                             // operators and brackets
	tkJSXText                           // text between JSX tags
)

// token is one significant lexical unit: clex's token (Text is the raw
// source, Off its offset) and val, the cooked value of strings, template parts
// and JSX text (escapes resolved, JSX white space folded).
type token struct {
	clex.Token
	val string
}

// endOff is the offset just after the token.
func (tk *token) endOff() int { return int(tk.Off) + len(tk.Text) }

// comment is a line or block comment with its raw text (markers included).
type comment struct {
	text    string
	line    int
	endLine int
	off     int
	end     int
}

// frameKind is a lexer context that changes how the next characters read.
type frameKind uint8

const (
	frTemplate    frameKind = iota // inside ${ ... } of a template literal
	frJSXExpr                      // inside { ... } of a JSX attribute or child
	frJSXTag                       // inside <tag ...>
	frJSXClose                     // inside </tag>
	frJSXChildren                  // between <tag> and </tag>
)

type frame struct {
	kind  frameKind
	depth int // open '{' inside frTemplate/frJSXExpr
	names int // names seen inside a JSX tag
}

// lexer turns source text into tokens and comments. It always advances, so it
// terminates on any input; malformed input sets broken.
type lexer struct {
	src      string
	pos      int
	jsx      bool
	toks     []token
	comments []comment
	frames   []frame
	broken   bool
	// markup holds, in order, the indexes of the tokens of JSX markup (tag
	// brackets, names, attributes, JSX text), which are not operators even
	// where they look like them; only Tokenize reads it.
	markup []int32

	// regexFailUntil is an offset before which no regex literal can close: a
	// failed scan that met no character class proves it for later starts.
	regexFailUntil int

	lineOff int // offset up to which lines were counted
	lineNum int // line number at lineOff
}

// lex tokenizes src. jsx enables JSX elements in expression position.
func lex(src string, jsx bool) *lexer {
	l := &lexer{src: src, jsx: jsx, lineNum: 1}
	l.toks = make([]token, 0, len(src)/3+16)
	if strings.HasPrefix(src, "#!") {
		end := strings.IndexByte(src, '\n')
		if end < 0 {
			end = len(src)
		}
		l.addComment(0, end)
		l.pos = end
	}
	l.run()
	if len(l.frames) > 0 {
		l.broken = true
	}
	return l
}

// lineAt returns the 1-based line of off. Offsets are requested in increasing
// order, so counting is linear over the whole file.
func (l *lexer) lineAt(off int) int {
	if off < l.lineOff {
		l.lineOff, l.lineNum = 0, 1
	}
	if off > len(l.src) {
		off = len(l.src)
	}
	l.lineNum += strings.Count(l.src[l.lineOff:off], "\n")
	l.lineOff = off
	return l.lineNum
}

func (l *lexer) emit(kind tokKind, start, end int, val string) {
	l.toks = append(l.toks, token{Token: clex.Token{Kind: kind, Off: int32(start), Text: l.src[start:end], Line: l.lineAt(start)}, val: val})
}

func (l *lexer) addComment(start, end int) {
	line := l.lineAt(start)
	endLine := l.lineAt(end)
	l.comments = append(l.comments, comment{text: l.src[start:end], line: line, endLine: endLine, off: start, end: end})
}

// markFrom records the tokens from index n on as JSX markup.
func (l *lexer) markFrom(n int) {
	for i := n; i < len(l.toks); i++ {
		l.markup = append(l.markup, int32(i))
	}
}

func (l *lexer) top() *frame {
	if len(l.frames) == 0 {
		return nil
	}
	return &l.frames[len(l.frames)-1]
}

func (l *lexer) pop() { l.frames = l.frames[:len(l.frames)-1] }

func (l *lexer) run() {
	for l.pos < len(l.src) {
		if f := l.top(); f != nil {
			switch f.kind {
			case frJSXTag, frJSXClose:
				n := len(l.toks)
				l.lexJSXTag()
				l.markFrom(n)
				continue
			case frJSXChildren:
				n := len(l.toks)
				l.lexJSXChildren()
				l.markFrom(n)
				continue
			}
		}
		if l.skipSpaceAndComments() {
			continue
		}
		l.lexToken()
	}
}

// skipSpaceAndComments consumes one run of whitespace or one comment and reports
// whether it consumed anything.
func (l *lexer) skipSpaceAndComments() bool {
	start := l.pos
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' {
			l.pos++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(l.src[l.pos:])
			if r == 0xFEFF || unicode.IsSpace(r) {
				l.pos += size
				continue
			}
		}
		break
	}
	if l.pos > start {
		return true
	}
	if l.pos+1 < len(l.src) && l.src[l.pos] == '/' {
		switch l.src[l.pos+1] {
		case '/':
			end := strings.IndexByte(l.src[l.pos:], '\n')
			if end < 0 {
				end = len(l.src)
			} else {
				end += l.pos
			}
			if end > l.pos && l.src[end-1] == '\r' {
				end--
			}
			l.addComment(l.pos, end)
			l.pos = end
			return true
		case '*':
			end := strings.Index(l.src[l.pos+2:], "*/")
			if end < 0 {
				l.broken = true
				end = len(l.src)
			} else {
				end += l.pos + 4
			}
			l.addComment(l.pos, end)
			l.pos = end
			return true
		}
	}
	return false
}

// regexAllowed reports whether a '/' (or a JSX '<') at this point starts an
// expression, judged by the previous significant token.
func (l *lexer) regexAllowed() bool {
	if len(l.toks) == 0 {
		return true
	}
	t := l.toks[len(l.toks)-1]
	switch t.Kind {
	case tkIdent:
		return exprKeywords[t.Text]
	case tkPunct:
		switch t.Text {
		case ")", "]", "++", "--":
			return false
		}
		return true
	}
	return false
}

// exprKeywords are keywords after which an expression (not an operator) follows.
var exprKeywords = map[string]bool{
	"return": true, "typeof": true, "instanceof": true, "in": true, "of": true,
	"new": true, "delete": true, "void": true, "throw": true, "case": true,
	"do": true, "else": true, "yield": true, "await": true, "extends": true,
}

func (l *lexer) lexToken() {
	start := l.pos
	c := l.src[l.pos]
	switch {
	case c == '`':
		l.pos++
		l.lexTemplatePart(start, true)
	case c == '"' || c == '\'':
		l.lexString(c)
	case clex.IsDigit(c) || (c == '.' && l.pos+1 < len(l.src) && clex.IsDigit(l.src[l.pos+1])):
		l.lexNumber()
	case ident.StartByte(c) || c == '#' || c == '\\':
		l.lexIdent()
	case c >= utf8.RuneSelf:
		r, size := utf8.DecodeRuneInString(l.src[l.pos:])
		if isIdentRune(r) {
			l.lexIdent()
			return
		}
		l.pos += size
		l.emit(tkPunct, start, l.pos, "")
	case c == '/' && l.regexAllowed() && l.lexRegex():
	case c == '<' && l.jsx && l.regexAllowed() && l.jsxStartsAt(l.pos+1):
		l.pos++
		l.emit(tkPunct, start, l.pos, "")
		l.markFrom(len(l.toks) - 1)
		l.frames = append(l.frames, frame{kind: frJSXTag})
	case c == '{':
		if f := l.top(); f != nil {
			f.depth++
		}
		l.pos++
		l.emit(tkPunct, start, l.pos, "")
	case c == '}':
		f := l.top()
		if f != nil && f.depth == 0 && f.kind == frTemplate {
			l.pop()
			l.pos++
			l.lexTemplatePart(start, false)
			return
		}
		if f != nil && f.depth == 0 && f.kind == frJSXExpr {
			l.pop()
		} else if f != nil && f.depth > 0 {
			f.depth--
		}
		l.pos++
		l.emit(tkPunct, start, l.pos, "")
	default:
		l.lexPunct()
	}
}

func (l *lexer) lexIdent() {
	start := l.pos
	if l.src[l.pos] == '#' {
		l.pos++
	}
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		if ident.StartByte(c) || clex.IsDigit(c) {
			l.pos++
			continue
		}
		if c == '\\' && l.pos+1 < len(l.src) && l.src[l.pos+1] == 'u' {
			l.pos += 2
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(l.src[l.pos:])
			if isIdentRune(r) {
				l.pos += size
				continue
			}
		}
		break
	}
	if l.pos == start || (l.pos == start+1 && l.src[start] == '#') {
		// A lone '#' or '\': emit it as punctuation so the lexer advances.
		if l.pos == start {
			l.pos++
		}
		l.emit(tkPunct, start, l.pos, "")
		return
	}
	l.emit(tkIdent, start, l.pos, "")
}

// puncts are the multi-character punctuators, longest first.
var puncts = []string{
	">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=",
	"=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=",
	"*=", "/=", "%=", "&=", "|=", "^=", "**", "<<", ">>",
}

// punctsByFirst indexes puncts by their first byte.
var punctsByFirst = func() [256][]string {
	var m [256][]string
	for _, p := range puncts {
		m[p[0]] = append(m[p[0]], p)
	}
	return m
}()

func (l *lexer) lexPunct() {
	start := l.pos
	rest := l.src[l.pos:]
	for _, p := range punctsByFirst[rest[0]] {
		if strings.HasPrefix(rest, p) {
			if p == "?." && len(rest) > 2 && clex.IsDigit(rest[2]) {
				continue
			}
			l.pos += len(p)
			l.emit(tkPunct, start, l.pos, "")
			return
		}
	}
	l.pos++
	l.emit(tkPunct, start, l.pos, "")
}

// ident classifies the ASCII bytes of identifiers ($ is a letter in JS).
var ident = clex.Ident{Extra: "$"}

// isIdentRune reports a non-ASCII rune of an identifier, at its start as
// further on. It is JS's own, wider than clex.Ident's letters and digits:
// combining marks, connector punctuation, ZWNJ and ZWJ count too.
func isIdentRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) ||
		unicode.Is(unicode.Mc, r) || unicode.Is(unicode.Pc, r) || r == 0x200C || r == 0x200D
}
