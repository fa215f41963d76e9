package python

// References implements testscan.Referencer; `_ = name` is not a
// reference.
func (x *Extractor) References(_ string, src []byte, names map[string]bool) map[string]int {
	out := map[string]int{}
	toks, _, _ := lex(string(src))
	for i, t := range toks {
		switch t.kind {
		case tkName:
			// `_ = name` keeps a function in use without running it.
			blank := i >= 2 && toks[i-1].text == "=" && toks[i-2].text == "_"
			if names[t.text] && !blank {
				out[t.text]++
			}
		case tkString:
			if u := parseStringToken(t.text).value(); names[u] {
				out[u]++
			}
		}
	}
	return out
}
