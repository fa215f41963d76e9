package jsts

import (
	"path"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

var _ testscan.Namer = (*Extractor)(nil)

// Names lists the identifiers on lines line..endLine of src (testscan.Namer).
// JSX is read where the file's extension says, as Extract reads it.
func (*Extractor) Names(p string, src []byte, line, endLine int) []string {
	l := lex(string(src), extensions[strings.ToLower(path.Ext(p))])
	var out []string
	for i := range l.toks {
		t := &l.toks[i]
		if t.Line > endLine {
			break
		}
		if t.Kind != tkIdent || t.Line < line {
			continue
		}
		member := i > 0 && l.toks[i-1].Kind == tkPunct && (l.toks[i-1].Text == "." || l.toks[i-1].Text == "?.")
		out = testscan.AppendName(out, t.Text, member)
	}
	return out
}
