package java

import (
	"path"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan/clex"
)

// References implements testscan.Referencer. A method declared neither
// private nor static may override one of a supertype that another file
// calls: its declaration counts as one more reference.
func (x *Extractor) References(p string, src []byte, names map[string]bool) map[string]int {
	out := map[string]int{}
	lx := lex(src)
	for _, t := range lx.toks {
		switch t.Kind {
		case tkIdent:
			if names[t.Text] {
				out[t.Text]++
			}
		case tkString:
			if u := clex.Unquote(t.Text); names[u] {
				out[u]++
			}
		}
	}
	if len(out) == 0 {
		return out
	}
	match, _ := matchGroups(lx.toks)
	ps := &parser{toks: lx.toks, match: match, stem: strings.TrimSuffix(path.Base(p), ".java")}
	ps.members(0, len(lx.toks), nil)
	for _, m := range ps.methods {
		if names[m.name] && !m.mods["private"] && !m.mods["static"] {
			out[m.name]++
		}
	}
	return out
}
