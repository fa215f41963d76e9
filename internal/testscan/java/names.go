package java

import "github.com/ralph-gate/ralph-gate/internal/testscan"

var _ testscan.Namer = (*Extractor)(nil)

// Names lists the identifiers on lines line..endLine of src (testscan.Namer).
func (*Extractor) Names(_ string, src []byte, line, endLine int) []string {
	toks := lex(src).toks
	var out []string
	for i, t := range toks {
		if t.Line > endLine {
			break
		}
		if t.Kind != tkIdent || t.Line < line {
			continue
		}
		out = testscan.AppendName(out, t.Text, i > 0 && toks[i-1].Kind == tkPunct && toks[i-1].Text == ".")
	}
	return out
}
