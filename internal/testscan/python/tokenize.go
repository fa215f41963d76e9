package python

// TokenKind classifies a Token of Tokenize.
type TokenKind uint8

// The kinds of Tokenize's tokens. A string literal is one TokenString with its
// prefix, its quotes and, for f-strings, its replacement fields, so nothing
// inside a string ever reads as code.
const (
	TokenName    = TokenKind(tkName) // identifiers and keywords
	TokenNumber  = TokenKind(tkNumber)
	TokenString  = TokenKind(tkString)
	TokenOp      = TokenKind(tkOp)      // operators, delimiters and brackets
	TokenNewline = TokenKind(tkNewline) // the end of a logical line
	TokenIndent  = TokenKind(tkIndent)
	TokenDedent  = TokenKind(tkDedent)
)

// Token is one significant lexeme of Python source, comments left out: its
// kind, the 1-based line of its first byte and its byte span [Off, End) in the
// source. NEWLINE, INDENT and DEDENT tokens are empty spans.
type Token struct {
	Kind     TokenKind
	Line     int
	Off, End int
}

// Tokenize splits src into tokens the way this package reads Python, for
// callers outside it that need offsets (the mutation tester edits source at
// token boundaries). ok is false when src does not tokenize cleanly as Python:
// an unterminated string, an unbalanced bracket, an indentation no block
// opened; the tokens are then a best effort.
func Tokenize(src string) (toks []Token, ok bool) {
	lexed, _, partial := lex(src)
	toks = make([]Token, len(lexed))
	for i, t := range lexed {
		toks[i] = Token{Kind: TokenKind(t.kind), Line: int(t.line), Off: int(t.off), End: int(t.end())}
	}
	return toks, !partial
}
