package rust

import (
	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/clex"
)

var _ testscan.Namer = (*Extractor)(nil)

// Names lists the identifiers on lines line..endLine of src (testscan.Namer).
func (*Extractor) Names(_ string, src []byte, line, endLine int) []string {
	return clex.Names(lex(src).toks, tkIdent, tkPunct, line, endLine, ".", "::")
}
