package jsts

import (
	"path"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

var _ testscan.Namer = (*Extractor)(nil)

// Names lists the identifiers of src (testscan.Namer). JSX is read where
// the file's extension says, as Extract reads it.
func (*Extractor) Names(p string, src []byte) []testscan.Name {
	l := lex(string(src), extensions[strings.ToLower(path.Ext(p))])
	var out []testscan.Name
	for i := range l.toks {
		t := &l.toks[i]
		if t.Kind != tkIdent {
			continue
		}
		member := i > 0 && l.toks[i-1].Kind == tkPunct && (l.toks[i-1].Text == "." || l.toks[i-1].Text == "?.")
		out = testscan.AppendName(out, t.Line, t.Text, member)
	}
	return out
}
