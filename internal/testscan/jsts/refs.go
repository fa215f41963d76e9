package jsts

import (
	"path"
	"strings"
)

// References implements testscan.Referencer; `void name` is not a
// reference.
func (x *Extractor) References(p string, src []byte, names map[string]bool) map[string]int {
	out := map[string]int{}
	toks := lex(string(src), extensions[strings.ToLower(path.Ext(p))]).toks
	for i, t := range toks {
		switch t.Kind {
		case tkIdent:
			// `void name;` keeps a function in use without running it.
			blank := i >= 1 && toks[i-1].Kind == tkIdent && toks[i-1].Text == "void"
			if names[t.Text] && !blank {
				out[t.Text]++
			}
		case tkString, tkTemplate:
			if u := unquoteAny(t.Text); names[u] {
				out[u]++
			}
		}
	}
	return out
}

// unquoteAny strips a string literal's quotes (”, "" or “).
func unquoteAny(s string) string {
	if len(s) >= 2 && strings.ContainsRune(`'"`+"`", rune(s[0])) && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}
