package pipeline

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"golang.org/x/mod/modfile"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
)

// locateGoTests names the file of measured findings about Go tests, which
// go test -json does not give ("example.com/calc.TestMul" is declared in
// calc/mul_test.go): the test's package directory is found from go.mod's
// module path, and its _test.go files at commit are parsed for the function.
// Findings it cannot place keep an empty file.
func locateGoTests(repo *gitrepo.Repo, commits []plumbing.Hash, fs []gate.Finding) {
	mod := ""
	for _, c := range commits {
		if b, err := repo.ReadFile(c, "go.mod"); err == nil {
			mod = modfile.ModulePath(b)
			break
		}
	}
	if mod == "" {
		return
	}
	cache := map[string]map[string]string{} // dir -> func name -> file
	for i := range fs {
		f := &fs[i]
		if f.File != "" || f.Test == "" || f.Evidence != gate.EvidenceMeasured {
			continue
		}
		pkg, name, ok := splitGoTestID(f.Test)
		if !ok || (pkg != mod && !strings.HasPrefix(pkg, mod+"/")) {
			continue
		}
		dir := strings.TrimPrefix(strings.TrimPrefix(pkg, mod), "/")
		if dir == "" {
			dir = "."
		}
		funcs, seen := cache[dir]
		if !seen {
			funcs = map[string]string{}
			for _, c := range commits {
				goTestFuncs(repo, c, dir, funcs)
			}
			cache[dir] = funcs
		}
		f.File = funcs[name]
	}
}

// splitGoTestID splits "example.com/calc.TestMul/sub" into the package and
// the top-level function name.
func splitGoTestID(id string) (pkg, name string, ok bool) {
	top, _, _ := strings.Cut(id, "/")
	// The package path may hold slashes and dots; the function is after the
	// last dot that follows the last slash of the package part.
	slash := strings.LastIndex(id[:len(top)], "/")
	for {
		i := strings.Index(id[slash+1:], ".")
		if i < 0 {
			return "", "", false
		}
		dot := slash + 1 + i
		rest := id[dot+1:]
		if fn, _, _ := strings.Cut(rest, "/"); strings.HasPrefix(fn, "Test") || strings.HasPrefix(fn, "Fuzz") || strings.HasPrefix(fn, "Example") {
			return id[:dot], fn, true
		}
		slash = dot
	}
}

// goTestFuncs adds the test functions the _test.go files of dir declare at
// commit to funcs (name -> repository path), keeping earlier entries.
func goTestFuncs(repo *gitrepo.Repo, commit plumbing.Hash, dir string, funcs map[string]string) {
	declaredGoFuncs(repo, commit, dir, funcs)
}

// declaredGoFuncs adds the top-level functions the _test.go files of dir
// declare at commit to funcs, keeping earlier entries; complete is false
// when a _test.go file could not be read or parsed, so that what it declares
// is unknown.
func declaredGoFuncs(repo *gitrepo.Repo, commit plumbing.Hash, dir string, funcs map[string]string) (complete bool) {
	d := dir
	if d == "." {
		d = ""
	}
	entries, err := repo.ListDir(commit, d)
	if err != nil {
		return false
	}
	complete = true
	for _, e := range entries {
		if !strings.HasSuffix(e.Path, "_test.go") {
			continue
		}
		b, err := repo.Blob(e.Hash)
		if err != nil || bytes.IndexByte(b, 0) >= 0 {
			complete = false
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), path.Base(e.Path), b, parser.SkipObjectResolution)
		if err != nil {
			complete = false
			continue
		}
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok && fn.Recv == nil {
				if _, dup := funcs[fn.Name.Name]; !dup {
					funcs[fn.Name.Name] = e.Path
				}
			}
		}
	}
	return complete
}
