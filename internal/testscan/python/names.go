package python

import "github.com/ralph-gate/ralph-gate/internal/testscan"

var _ testscan.Namer = (*Extractor)(nil)

// Names lists the identifiers on lines line..endLine of src (testscan.Namer).
func (*Extractor) Names(_ string, src []byte, line, endLine int) []string {
	toks, _, _ := lex(string(src))
	var out []string
	for i, t := range toks {
		if int(t.line) > endLine {
			break
		}
		if t.kind != tkName || int(t.line) < line {
			continue
		}
		out = testscan.AppendName(out, t.text, i > 0 && toks[i-1].kind == tkOp && toks[i-1].text == ".")
	}
	return out
}
