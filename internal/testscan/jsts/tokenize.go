package jsts

import "github.com/ralph-gate/ralph-gate/internal/testscan/clex"

// The kinds of Tokenize's tokens (clex.Token.Kind). A string or regex literal
// is one token; a template literal is one KindTemplate, or a head, middles and
// a tail around the tokens of its substitutions.
const (
	KindIdent          = tkIdent // identifiers and keywords, #private names
	KindNumber         = tkNumber
	KindString         = tkString
	KindTemplate       = tkTemplate       // `...` without substitutions
	KindTemplateHead   = tkTemplateHead   // `...${
	KindTemplateMiddle = tkTemplateMiddle // }...${
	KindTemplateTail   = tkTemplateTail   // }...`
	KindRegex          = tkRegex
	KindPunct          = tkPunct // operators and brackets
	KindJSXText        = tkJSXText
)

// Token is one significant lexeme, comments left out: clex's token (kind,
// offset, raw text, line of its first byte) and whether it is JSX markup (a
// tag's brackets, names and attributes, or text between tags), which reads
// like operators but is not.
type Token struct {
	clex.Token
	Markup bool
}

// Tokenize splits src into tokens the way this package reads JavaScript and
// TypeScript, for callers outside it that need offsets (the mutation tester
// edits source at token boundaries). jsx enables JSX elements, as in .js and
// .tsx files. ok is false when the lexer met an unterminated string, template,
// regex, comment or JSX element; bracket balance is the caller's to check.
func Tokenize(src string, jsx bool) (toks []Token, ok bool) {
	l := lex(src, jsx)
	toks = make([]Token, len(l.toks))
	for i, t := range l.toks {
		toks[i].Token = t.Token
	}
	for _, i := range l.markup {
		toks[i].Markup = true
	}
	return toks, !l.broken
}
