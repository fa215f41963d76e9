package pipeline

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"path"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"golang.org/x/mod/modfile"

	"github.com/ralph-gate/ralph-gate/collectors"
	"github.com/ralph-gate/ralph-gate/internal/analyze"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
)

// goTestMoves finds the Go tests that ran at BASE and not at HEAD whose body
// ran at HEAD under another id: a test moved to another package, renamed, or
// both. It maps the BASE id to the HEAD id. Identity is the test's code, not
// its name: the bodies are compared with comments, the function's name and
// the package qualifiers of the calls taken out (a test moved from package
// calc to package arith_test calls calc.Sub where it called Sub), and each
// HEAD test stands for one BASE test at most. A HEAD test that did not run
// at HEAD is never a move's target: a test moved where nothing runs it is
// gone. A move into another package imports the package it left when it
// still runs that package's code (analyze.TestMove.Imports).
func goTestMoves(repo *gitrepo.Repo, base, head plumbing.Hash, bres, hres *collectors.Result) map[string]analyze.TestMove {
	if bres == nil || hres == nil || bres.Tests == nil || hres.Tests == nil {
		return nil
	}
	mod := ""
	for _, c := range []plumbing.Hash{head, base} {
		if b, err := repo.ReadFile(c, "go.mod"); err == nil {
			mod = modfile.ModulePath(b)
			break
		}
	}
	if mod == "" {
		return nil
	}
	topLevel := func(r, other *collectors.Result) map[string][]string { // dir -> ids
		out := map[string][]string{}
		for t := range r.Tests.All() {
			if strings.Contains(t.ID, "/") && !strings.HasPrefix(t.ID, t.Suite+".") {
				continue
			}
			if strings.Contains(strings.TrimPrefix(t.ID, t.Suite+"."), "/") {
				continue // subtests go with their test
			}
			if _, ok := other.Tests.Get(t.ID); ok {
				continue
			}
			pkg, name, ok := splitGoTestID(t.ID)
			if !ok || (pkg != mod && !strings.HasPrefix(pkg, mod+"/")) || !strings.HasPrefix(name, "Test") {
				continue
			}
			dir := strings.TrimPrefix(strings.TrimPrefix(pkg, mod), "/")
			if dir == "" {
				dir = "."
			}
			out[dir] = append(out[dir], t.ID)
		}
		return out
	}
	missing, fresh := topLevel(bres, hres), topLevel(hres, bres)
	if len(missing) == 0 || len(fresh) == 0 {
		return nil
	}
	type target struct {
		id      string
		imports map[string]bool
	}
	freshByBody := map[string][]target{}
	for dir, ids := range fresh {
		bodies := goTestBodies(repo, head, mod, dir)
		for _, id := range ids {
			_, name, _ := splitGoTestID(id)
			if b, ok := bodies[name]; ok {
				freshByBody[b.code] = append(freshByBody[b.code], target{id, b.imports})
			}
		}
	}
	moves := map[string]analyze.TestMove{}
	for dir, ids := range missing {
		bodies := goTestBodies(repo, base, mod, dir)
		for _, id := range ids {
			pkg, name, _ := splitGoTestID(id)
			b, ok := bodies[name]
			if !ok || len(freshByBody[b.code]) == 0 {
				continue
			}
			t := freshByBody[b.code][0]
			freshByBody[b.code] = freshByBody[b.code][1:]
			moves[id] = analyze.TestMove{To: t.id, Imports: t.imports[pkg]}
		}
	}
	return moves
}

// goTestBody is a test function's normalized code and the module packages
// its file imports, by import path.
type goTestBody struct {
	code    string
	imports map[string]bool
}

// goTestBodies returns the normalized code of each test function the
// _test.go files of dir declare at commit (see goTestMoves); mod is the
// module path.
func goTestBodies(repo *gitrepo.Repo, commit plumbing.Hash, mod, dir string) map[string]goTestBody {
	d := dir
	if d == "." {
		d = ""
	}
	entries, err := repo.ListDir(commit, d)
	if err != nil {
		return nil
	}
	out := map[string]goTestBody{}
	for _, e := range entries {
		if !strings.HasSuffix(e.Path, "_test.go") {
			continue
		}
		b, err := repo.Blob(e.Hash)
		if err != nil || bytes.IndexByte(b, 0) >= 0 {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path.Base(e.Path), b, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		imports, paths := map[string]bool{}, map[string]bool{}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if p != mod && !strings.HasPrefix(p, mod+"/") {
				continue
			}
			paths[p] = true
			name := path.Base(p)
			if im.Name != nil {
				name = im.Name.Name
			}
			imports[name] = true
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || fn.Body == nil || !strings.HasPrefix(fn.Name.Name, "Test") {
				continue
			}
			if _, dup := out[fn.Name.Name]; dup {
				continue
			}
			out[fn.Name.Name] = goTestBody{normalizedFunc(fn, imports), paths}
		}
	}
	return out
}

// normalizedFunc prints fn's parameters and body without its name, comments
// and the qualifiers of the module's own packages (imports, by name in the
// file); every other qualifier (testing, strings, a library) stays.
func normalizedFunc(fn *ast.FuncDecl, imports map[string]bool) string {
	body := rewriteQualifiers(fn.Body, imports)
	var buf bytes.Buffer
	fset := token.NewFileSet()
	_ = printer.Fprint(&buf, fset, fn.Type.Params)
	buf.WriteByte(' ')
	_ = printer.Fprint(&buf, fset, body)
	return buf.String()
}

// rewriteQualifiers replaces pkg.Name by Name for every imported package of
// the module (imports): what a test moved into an external test package, or
// next to another package of the module, writes for the same call.
func rewriteQualifiers(body *ast.BlockStmt, imports map[string]bool) *ast.BlockStmt {
	ast.Inspect(body, func(n ast.Node) bool {
		visit := func(e *ast.Expr) {
			sel, ok := (*e).(*ast.SelectorExpr)
			if !ok {
				return
			}
			x, ok := sel.X.(*ast.Ident)
			if !ok || !imports[x.Name] {
				return
			}
			*e = ast.NewIdent(sel.Sel.Name)
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			visit(&n.Fun)
			for i := range n.Args {
				visit(&n.Args[i])
			}
		case *ast.AssignStmt:
			for i := range n.Rhs {
				visit(&n.Rhs[i])
			}
		case *ast.CompositeLit:
			visit(&n.Type)
		case *ast.ValueSpec:
			if n.Type != nil {
				visit(&n.Type)
			}
			for i := range n.Values {
				visit(&n.Values[i])
			}
		case *ast.BinaryExpr:
			visit(&n.X)
			visit(&n.Y)
		case *ast.ReturnStmt:
			for i := range n.Results {
				visit(&n.Results[i])
			}
		case *ast.StarExpr:
			visit(&n.X)
		case *ast.UnaryExpr:
			visit(&n.X)
		}
		return true
	})
	return body
}
