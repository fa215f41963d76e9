package rust

import "github.com/ralph-gate/ralph-gate/internal/testscan/clex"

// References implements testscan.Referencer; `let _ = name` is not a
// reference.
func (x *Extractor) References(_ string, src []byte, names map[string]bool) map[string]int {
	out := map[string]int{}
	toks := lex(src).toks
	for i, t := range toks {
		switch t.Kind {
		case tkIdent:
			// `let _ = name;` keeps a function in use without running it.
			blank := i >= 2 && toks[i-1].Text == "=" && toks[i-2].Text == "_"
			if names[t.Text] && !blank {
				out[t.Text]++
			}
		case tkString:
			if u := clex.Unquote(t.Text); names[u] {
				out[u]++
			}
		}
	}
	return out
}
