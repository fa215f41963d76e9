package analyze

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// removedCode lists the functions a change deleted from production code,
// as a test's Calls name them ("name", ".name" for a method): Go's
// top-level functions and methods (read with go/parser), and the public
// names of the other languages (their Exports), that no new side of the
// change defines any more. A test deleted with the function it called went
// with its code: new tests of the code that replaced it are its
// replacement.
func removedCode(pairs []*pair) map[string]bool {
	had, has := map[string]bool{}, map[string]bool{}
	for _, pr := range pairs {
		for _, s := range []struct {
			sd    *side
			data  []byte
			path  string
			names map[string]bool
		}{{pr.old, pr.fc.Old, pr.fc.OldPath, had}, {pr.new, pr.fc.New, pr.fc.NewPath, has}} {
			if s.sd == nil || s.sd.isTest || s.sd.facts == nil {
				continue
			}
			if strings.HasSuffix(s.path, ".go") {
				goFuncs(s.path, s.data, s.names)
				continue
			}
			for _, x := range s.sd.facts.Exports {
				name := x.Name
				if i := strings.LastIndexByte(name, '.'); i >= 0 {
					s.names["."+name[i+1:]] = true
					name = name[i+1:]
				}
				s.names[name] = true
			}
		}
	}
	for k := range has {
		delete(had, k)
	}
	return had
}

// goFuncs adds the functions and methods a Go file declares to names.
func goFuncs(p string, src []byte, names map[string]bool) {
	f, err := parser.ParseFile(token.NewFileSet(), p, src, parser.SkipObjectResolution)
	if err != nil || f == nil {
		return
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		if fd.Recv != nil {
			names["."+fd.Name.Name] = true
			continue
		}
		names[fd.Name.Name] = true
	}
}
