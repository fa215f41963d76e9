package golang

import (
	"go/scanner"
	"go/token"
	"math"
)

// tok is one significant token of a unit: its kind, its byte range in the
// unit's source and where its text starts in lexed.hash. A token whose text
// differs from its source bytes (a raw string holding carriage returns, an
// invalid UTF-8 byte) has end -1 and its text in lexed.lits.
type tok struct {
	off, end int32
	h        int32
	k        uint8 // a token.Token, kept small: a file has millions of tokens
}

// kind is the token's kind.
func (t tok) kind() token.Token { return token.Token(t.k) }

// lexed is the tokens of a scanned piece of source.
type lexed struct {
	toks []tok
	// hash is the text of every token followed by a NUL byte: the input of the
	// fingerprint of any run of tokens is a slice of it (see hasher.add).
	hash []byte
	// lits holds the text of the tokens marked end -1, by offset.
	lits map[int32]string
	// tok0 and hash0 are where the scan under way started appending to toks
	// and hash; tok.h counts from hash0.
	tok0, hash0 int
}

// maxSource bounds the source that lex reads: offsets into it and into the
// hash text are 32-bit.
const maxSource = math.MaxInt32 / 4

// lex scans src[from:to] into its significant tokens (see tokenSeq), exactly as
// go/scanner would, and appends them to buf's slices; it returns the piece of
// buf that holds them. from must be the start of a token, or of blank space or
// comments before one. Plain ASCII code, which is nearly all Go code, is read by
// a scanner made for this that allocates nothing per token; source with
// anything else outside literals and comments (a non-ASCII identifier, a byte
// order mark, an invalid UTF-8 byte) is left to go/scanner. The tokens of a
// source larger than maxSource stop there.
func lex(src []byte, from, to int, buf *lexed) lexed {
	to = min(to, len(src), maxSource)
	from = min(from, to)
	buf.tok0, buf.hash0, buf.lits = len(buf.toks), len(buf.hash), nil
	if !lexASCII(src[:to], from, buf) {
		buf.toks, buf.hash = buf.toks[:buf.tok0], buf.hash[:buf.hash0]
		lexScanner(src, from, to, buf)
	}
	nt, nh := len(buf.toks), len(buf.hash)
	return lexed{toks: buf.toks[buf.tok0:nt:nt], hash: buf.hash[buf.hash0:nh:nh], lits: buf.lits}
}

// push appends a token whose text is src[off:end] (lit when end is -1),
// dropping a comma that a closing bracket follows.
func (lx *lexed) push(src []byte, t token.Token, off, end int, lit string) {
	if n := len(lx.toks); isCloser(t) && n > lx.tok0 && lx.toks[n-1].kind() == token.COMMA {
		lx.hash = lx.hash[:lx.hash0+int(lx.toks[n-1].h)]
		lx.toks = lx.toks[:n-1]
	}
	h := len(lx.hash) - lx.hash0
	if end >= 0 {
		lx.hash = append(lx.hash, src[off:end]...)
	} else {
		lx.hash = append(lx.hash, lit...)
	}
	lx.hash = append(lx.hash, 0)
	lx.toks = append(lx.toks, tok{off: int32(off), end: int32(end), h: int32(h), k: uint8(t)})
}

// lexScanner scans src[from:to] with go/scanner.
func lexScanner(src []byte, from, to int, lx *lexed) {
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, to-from)
	var s scanner.Scanner
	s.Init(f, src[from:to], func(token.Position, string) {}, 0)
	for {
		pos, t, lit := s.Scan()
		if t == token.EOF {
			return
		}
		if t == token.SEMICOLON {
			continue
		}
		if lit == "" {
			lit = t.String()
		}
		off := from + f.Offset(pos)
		end := off + len(lit)
		if end > to || string(src[off:end]) != lit {
			if lx.lits == nil {
				lx.lits = map[int32]string{}
			}
			lx.lits[int32(off)] = lit
			end = -1
		}
		lx.push(src, t, off, end, lit)
	}
}

// Byte classes of lexASCII.
const (
	clsOther = iota // an operator or an illegal character
	clsSpace        // skipped
	clsIdent        // starts an identifier or keyword
	clsDigit        // starts a number
	clsPunct        // a one-byte token whatever follows it: ( ) [ ] { } , ~
	clsQuote        // " or '
	clsNonASCII
)

// byteClass classifies the first byte of a token; punctTok is the token of
// the clsPunct bytes; identPart holds the bytes that continue an identifier.
var byteClass, punctTok, identPart = func() (cls [256]uint8, punct [256]token.Token, ident [256]bool) {
	for c := 0; c < 256; c++ {
		switch b := byte(c); {
		case b >= 0x80:
			cls[c] = clsNonASCII
		case isIdentStart(b):
			cls[c], ident[c] = clsIdent, true
		case isDigit(b):
			cls[c], ident[c] = clsDigit, true
		}
	}
	for _, b := range []byte(" \t\n\r") {
		cls[b] = clsSpace
	}
	cls['"'], cls['\''] = clsQuote, clsQuote
	for b, t := range map[byte]token.Token{
		'(': token.LPAREN, ')': token.RPAREN, '[': token.LBRACK, ']': token.RBRACK,
		'{': token.LBRACE, '}': token.RBRACE, ',': token.COMMA, '~': token.TILDE,
	} {
		cls[b], punct[b] = clsPunct, t
	}
	return cls, punct, ident
}()

// lexASCII scans src[from:] the way go/scanner does, as long as every token
// outside literals and comments is ASCII; it reports false otherwise.
func lexASCII(src []byte, from int, lx *lexed) bool {
	n := len(src)
	for i := from; i < n; {
		c := src[i]
		start := i
		var t token.Token
		switch byteClass[c] {
		case clsSpace:
			for i++; i < n && byteClass[src[i]] == clsSpace; i++ {
			}
			continue
		case clsNonASCII:
			return false
		case clsIdent:
			for i++; i < n && identPart[src[i]]; i++ {
			}
			if i < n && src[i] >= 0x80 {
				return false
			}
			t = keyword(src[start:i])
		case clsDigit:
			t, i = lexNumber(src, i)
		case clsPunct:
			t, i = punctTok[c], i+1
		case clsQuote:
			t = token.STRING
			if c == '\'' {
				t = token.CHAR
			}
			i = quotedEnd(src, i+1, c)
		default:
			switch {
			case c == '.' && i+1 < n && isDigit(src[i+1]):
				t, i = lexNumber(src, i)
			case c == '`':
				t = token.STRING
				i = rawEnd(src, i+1)
				if hasCR(src[start:i]) {
					return false // go/scanner strips the CRs from the text
				}
			case c == '/' && i+1 < n && (src[i+1] == '/' || src[i+1] == '*'):
				i = commentEnd(src, i)
				continue
			default:
				t, i = operator(src, i)
				if t == token.SEMICOLON {
					continue
				}
			}
		}
		lx.push(src, t, start, i, "")
	}
	return true
}

func isIdentStart(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isHexDigit(c byte) bool { return isDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'f' }

func hasCR(s []byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '\r' {
			return true
		}
	}
	return false
}

// keyword is the keyword token spelled s, or IDENT (token.Lookup without a map).
func keyword(s []byte) token.Token {
	if len(s) < 2 || s[0] < 'b' || s[0] > 'v' {
		return token.IDENT
	}
	switch string(s) {
	case "break":
		return token.BREAK
	case "case":
		return token.CASE
	case "chan":
		return token.CHAN
	case "const":
		return token.CONST
	case "continue":
		return token.CONTINUE
	case "default":
		return token.DEFAULT
	case "defer":
		return token.DEFER
	case "else":
		return token.ELSE
	case "fallthrough":
		return token.FALLTHROUGH
	case "for":
		return token.FOR
	case "func":
		return token.FUNC
	case "go":
		return token.GO
	case "goto":
		return token.GOTO
	case "if":
		return token.IF
	case "import":
		return token.IMPORT
	case "interface":
		return token.INTERFACE
	case "map":
		return token.MAP
	case "package":
		return token.PACKAGE
	case "range":
		return token.RANGE
	case "return":
		return token.RETURN
	case "select":
		return token.SELECT
	case "struct":
		return token.STRUCT
	case "switch":
		return token.SWITCH
	case "type":
		return token.TYPE
	case "var":
		return token.VAR
	}
	return token.IDENT
}

// lexNumber reads a number literal at i the way go/scanner does, malformed ones
// included: it consumes the same bytes and gives the same kind.
func lexNumber(s []byte, i int) (token.Token, int) {
	at := func(i int) byte {
		if i < len(s) {
			return s[i]
		}
		return 0
	}
	t := token.ILLEGAL
	base := 10
	if s[i] != '.' {
		t = token.INT
		if s[i] == '0' {
			i++
			switch at(i) | 0x20 {
			case 'x':
				i, base = i+1, 16
			case 'o', 'b':
				i, base = i+1, 8 // base 2 and 8 accept the same (decimal) digits
			default:
				base = 8
			}
		}
		i = digitsEnd(s, i, base)
	}
	if at(i) == '.' {
		t = token.FLOAT
		i = digitsEnd(s, i+1, base)
	}
	if e := at(i) | 0x20; e == 'e' || e == 'p' {
		t = token.FLOAT
		i++
		if c := at(i); c == '+' || c == '-' {
			i++
		}
		i = digitsEnd(s, i, 10)
	}
	if at(i) == 'i' {
		t = token.IMAG
		i++
	}
	return t, i
}

// digitsEnd skips digits and underscores: any decimal digit up to base 10, hex
// digits above.
func digitsEnd(s []byte, i, base int) int {
	for i < len(s) && (s[i] == '_' || isDigit(s[i]) || base > 10 && isHexDigit(s[i])) {
		i++
	}
	return i
}

// quotedEnd is the end of a string or rune literal whose body starts at i: after
// the closing quote, or before the newline or the end that cuts it short.
func quotedEnd(s []byte, i int, quote byte) int {
	for i < len(s) {
		switch s[i] {
		case '\n':
			return i
		case quote:
			return i + 1
		case '\\':
			if i+1 < len(s) && (s[i+1] == quote || s[i+1] == '\\') {
				i++
			}
		}
		i++
	}
	return i
}

// rawEnd is the end of a raw string whose body starts at i.
func rawEnd(s []byte, i int) int {
	for i < len(s) {
		if s[i] == '`' {
			return i + 1
		}
		i++
	}
	return i
}

// commentEnd is the end of the comment at i: before the newline of a line
// comment, after the "*/" of a general one, or the end of s.
func commentEnd(s []byte, i int) int {
	if s[i+1] == '/' {
		for i < len(s) && s[i] != '\n' {
			i++
		}
		return i
	}
	for i += 2; i+1 < len(s); i++ {
		if s[i] == '*' && s[i+1] == '/' {
			return i + 2
		}
	}
	return len(s)
}

// operator reads the operator, punctuation or illegal character at i.
func operator(s []byte, i int) (token.Token, int) {
	next := byte(0)
	if i+1 < len(s) {
		next = s[i+1]
	}
	// pick chooses between c, c= and, when double is set, cc (and cc=).
	pick := func(single, assign token.Token, double byte, dbl, dblAssign token.Token) (token.Token, int) {
		switch {
		case next == '=':
			return assign, i + 2
		case double != 0 && next == double:
			if dblAssign != token.ILLEGAL && i+2 < len(s) && s[i+2] == '=' {
				return dblAssign, i + 3
			}
			return dbl, i + 2
		}
		return single, i + 1
	}
	switch s[i] {
	case ':':
		if next == '=' {
			return token.DEFINE, i + 2
		}
		return token.COLON, i + 1
	case '.':
		if next == '.' && i+2 < len(s) && s[i+2] == '.' {
			return token.ELLIPSIS, i + 3
		}
		return token.PERIOD, i + 1
	case ',':
		return token.COMMA, i + 1
	case ';':
		return token.SEMICOLON, i + 1
	case '(':
		return token.LPAREN, i + 1
	case ')':
		return token.RPAREN, i + 1
	case '[':
		return token.LBRACK, i + 1
	case ']':
		return token.RBRACK, i + 1
	case '{':
		return token.LBRACE, i + 1
	case '}':
		return token.RBRACE, i + 1
	case '+':
		return pick(token.ADD, token.ADD_ASSIGN, '+', token.INC, token.ILLEGAL)
	case '-':
		return pick(token.SUB, token.SUB_ASSIGN, '-', token.DEC, token.ILLEGAL)
	case '*':
		return pick(token.MUL, token.MUL_ASSIGN, 0, 0, 0)
	case '/':
		return pick(token.QUO, token.QUO_ASSIGN, 0, 0, 0)
	case '%':
		return pick(token.REM, token.REM_ASSIGN, 0, 0, 0)
	case '^':
		return pick(token.XOR, token.XOR_ASSIGN, 0, 0, 0)
	case '<':
		if next == '-' {
			return token.ARROW, i + 2
		}
		return pick(token.LSS, token.LEQ, '<', token.SHL, token.SHL_ASSIGN)
	case '>':
		return pick(token.GTR, token.GEQ, '>', token.SHR, token.SHR_ASSIGN)
	case '=':
		return pick(token.ASSIGN, token.EQL, 0, 0, 0)
	case '!':
		return pick(token.NOT, token.NEQ, 0, 0, 0)
	case '&':
		if next == '^' {
			if i+2 < len(s) && s[i+2] == '=' {
				return token.AND_NOT_ASSIGN, i + 3
			}
			return token.AND_NOT, i + 2
		}
		return pick(token.AND, token.AND_ASSIGN, '&', token.LAND, token.ILLEGAL)
	case '|':
		return pick(token.OR, token.OR_ASSIGN, '|', token.LOR, token.ILLEGAL)
	case '~':
		return token.TILDE, i + 1
	}
	return token.ILLEGAL, i + 1
}
