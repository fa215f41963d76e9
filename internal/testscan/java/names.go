package java

import (
	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/clex"
)

var _ testscan.Namer = (*Extractor)(nil)

// Names lists the identifiers of src (testscan.Namer).
func (*Extractor) Names(_ string, src []byte) []testscan.Name {
	var out []testscan.Name
	clex.Names(lex(src).toks, tkIdent, tkPunct, func(line int, name string, member bool) {
		out = testscan.AppendName(out, line, name, member)
	}, ".")
	return out
}
