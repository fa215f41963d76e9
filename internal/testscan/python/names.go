package python

import "github.com/ralph-gate/ralph-gate/internal/testscan"

var _ testscan.Namer = (*Extractor)(nil)

// Names lists the identifiers of src (testscan.Namer).
func (*Extractor) Names(_ string, src []byte) []testscan.Name {
	toks, _, _ := lex(string(src))
	var out []testscan.Name
	for i, t := range toks {
		if t.kind == tkName {
			out = testscan.AppendName(out, int(t.line), t.text, i > 0 && toks[i-1].kind == tkOp && toks[i-1].text == ".")
		}
	}
	return out
}
