package java

import (
	"strings"
	"unicode/utf8"

	"github.com/ralph-gate/ralph-gate/internal/testscan/clex"
)

// tokKind classifies a token (the kinds are Java's own values).
type tokKind = clex.Kind

const (
	tkIdent  tokKind = iota + 1 // identifiers and keywords
	tkNumber                    // numeric literals
	tkString                    // "..." and """...""" text blocks
	tkChar                      // 'c'
	tkPunct                     // operators and separators
)

// token is one significant lexeme; comments are kept apart.
type token = clex.Token

// comment is one line, block or javadoc comment.
type comment struct {
	text  string // without the delimiters, trimmed
	line  int
	off   int  // index of the first token after the comment
	block bool // a /* */ or /** */ comment
}

// lexResult is the token stream of a file plus what the lexer noticed.
type lexResult struct {
	toks     []token
	comments []comment
	broken   bool // an unterminated literal or comment, or a stray byte
}

// threeCharOps and twoCharOps are the multi-character operators kept whole. '>'
// is never combined with another '>' so that closing generics stay separate.
var threeCharOps = []string{"<<=", "..."}

var twoCharOps = []string{"==", "!=", "<=", ">=", "&&", "||", "->", "::", "++", "--",
	"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<"}

// lex tokenizes Java source. It never fails: unknown bytes become punctuation and
// unterminated constructs run to the end of the line or file with broken set.
func lex(src []byte) lexResult {
	s := string(src)
	var r lexResult
	r.toks = make([]token, 0, len(s)/4)
	line := 1
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			i++
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			end := strings.IndexByte(s[i:], '\n')
			if end < 0 {
				end = len(s) - i
			}
			r.comments = append(r.comments, comment{text: strings.TrimSpace(s[i+2 : i+end]), line: line, off: len(r.toks)})
			i += end
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			end := strings.Index(s[i+2:], "*/")
			var body string
			if end < 0 {
				body = s[i+2:]
				r.broken = true
				i = len(s)
			} else {
				body = s[i+2 : i+2+end]
				i += end + 4
			}
			r.comments = append(r.comments, comment{text: strings.TrimSpace(strings.TrimPrefix(body, "*")), line: line, off: len(r.toks), block: true})
			line += strings.Count(body, "\n")
		case c == '"' && strings.HasPrefix(s[i:], `"""`):
			end, ok := scanTextBlock(s, i+3)
			if !ok {
				r.broken = true
			}
			text := s[i:end]
			r.toks = append(r.toks, token{Kind: tkString, Text: text, Line: line})
			line += strings.Count(text, "\n")
			i = end
		case c == '"' || c == '\'':
			end, ok := scanQuoted(s, i+1, c)
			if !ok {
				r.broken = true
			}
			kind := tkString
			if c == '\'' {
				kind = tkChar
			}
			r.toks = append(r.toks, token{Kind: kind, Text: s[i:end], Line: line})
			i = end
		case clex.IsDigit(c) || (c == '.' && i+1 < len(s) && clex.IsDigit(s[i+1])):
			end := scanNumber(s, i)
			r.toks = append(r.toks, token{Kind: tkNumber, Text: s[i:end], Line: line})
			i = end
		case ident.Start(s, i):
			end := i
			for end < len(s) && ident.Part(s, end) {
				_, size := utf8.DecodeRuneInString(s[end:])
				end += size
			}
			r.toks = append(r.toks, token{Kind: tkIdent, Text: s[i:end], Line: line})
			i = end
		default:
			n := punctLen(s[i:])
			if c >= utf8.RuneSelf {
				_, n = utf8.DecodeRuneInString(s[i:])
				r.broken = true
			}
			r.toks = append(r.toks, token{Kind: tkPunct, Text: s[i : i+n], Line: line})
			i += n
		}
	}
	return r
}

func punctLen(s string) int {
	if len(s) < 2 || strings.IndexByte("<.=!>&|-:+*/%^", s[0]) < 0 {
		return 1
	}
	for _, op := range threeCharOps {
		if strings.HasPrefix(s, op) {
			return 3
		}
	}
	for _, op := range twoCharOps {
		if strings.HasPrefix(s, op) {
			return 2
		}
	}
	return 1
}

// scanQuoted returns the end of a string or char literal that started before i.
// A literal stops at the end of its line when it is not terminated.
func scanQuoted(s string, i int, quote byte) (int, bool) {
	for i < len(s) {
		switch s[i] {
		case '\\':
			if i+1 < len(s) && s[i+1] == '\n' {
				return i + 1, false
			}
			i += 2
		case quote:
			return i + 1, true
		case '\n':
			return i, false
		default:
			i++
		}
	}
	return len(s), false
}

// scanTextBlock returns the end of a text block whose content starts at i.
func scanTextBlock(s string, i int) (int, bool) {
	for i < len(s) {
		switch {
		case s[i] == '\\':
			i += 2
		case strings.HasPrefix(s[i:], `"""`):
			return i + 3, true
		default:
			i++
		}
	}
	return len(s), false
}

func scanNumber(s string, i int) int {
	start := i
	if strings.HasPrefix(s[i:], "0x") || strings.HasPrefix(s[i:], "0X") || strings.HasPrefix(s[i:], "0b") || strings.HasPrefix(s[i:], "0B") {
		i += 2
		for i < len(s) && (clex.IsHex(s[i]) || s[i] == '_' || s[i] == '.' || s[i] == 'p' || s[i] == 'P') {
			i++
		}
		for i < len(s) && strings.IndexByte("lLfFdD", s[i]) >= 0 {
			i++
		}
		return i
	}
	for i < len(s) {
		c := s[i]
		switch {
		case clex.IsDigit(c) || c == '_':
			i++
		case c == '.' && i+1 < len(s) && clex.IsDigit(s[i+1]):
			i++
		case c == '.' && i > start && !(i+1 < len(s) && (s[i+1] == '.' || ident.StartByte(s[i+1]))):
			i++ // "1." is a double literal, "1.foo" is not
		case (c == 'e' || c == 'E') && i+1 < len(s) && (clex.IsDigit(s[i+1]) || ((s[i+1] == '+' || s[i+1] == '-') && i+2 < len(s) && clex.IsDigit(s[i+2]))):
			i += 2
		default:
			for i < len(s) && strings.IndexByte("lLfFdD", s[i]) >= 0 {
				i++
			}
			return i
		}
	}
	return i
}

// ident classifies identifiers ($ is a letter in Java).
var ident = clex.Ident{Extra: "$"}

// matchGroups pairs every opening (, [ and { with its closer (clex.MatchGroups).
func matchGroups(toks []token) (match []int, ok bool) { return clex.MatchGroups(toks, tkPunct) }
