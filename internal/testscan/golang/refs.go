package golang

import (
	"go/scanner"
	"go/token"
	"strconv"
)

// References implements testscan.Referencer. `_ = name` (and `var _ =
// name`), which keeps a function in use without running it, is not a
// reference.
func (x *Extractor) References(_ string, src []byte, names map[string]bool) map[string]int {
	out := map[string]int{}
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", -1, len(src)), src, nil, 0)
	type lexeme struct {
		tok token.Token
		lit string
	}
	var back [2]lexeme // the two tokens before, nearest last
	for {
		_, tok, lit := s.Scan()
		blank := back[1].tok == token.ASSIGN && back[0].tok == token.IDENT && back[0].lit == "_"
		back[0], back[1] = back[1], lexeme{tok, lit}
		switch tok {
		case token.EOF:
			return out
		case token.IDENT:
			if names[lit] && !blank {
				out[lit]++
			}
		case token.STRING:
			if u, err := strconv.Unquote(lit); err == nil && names[u] {
				out[u]++
			}
		}
	}
}
