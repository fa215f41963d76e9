package analyze

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testgit"
)

// goEdits returns edited versions of a Go file, one per kind of edit a commit
// makes to one function (a test and another, or every function when every is
// set): deleted, skipped, an assertion removed, renamed, a line added, a
// //nolint added; and edits outside functions: an import added, a type,
// variable or constant declaration deleted, renamed or added.
func goEdits(t *testing.T, src string, every bool) map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	var funcs []*ast.FuncDecl
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && len(fd.Body.List) > 0 {
			funcs = append(funcs, fd)
		}
	}
	if len(funcs) < 3 {
		return nil
	}
	out := map[string]string{}
	pick := func(want func(*ast.FuncDecl) bool) *ast.FuncDecl {
		for i := range funcs {
			fd := funcs[(len(funcs)/2+i)%len(funcs)]
			if want(fd) {
				return fd
			}
		}
		return nil
	}
	isTest := func(fd *ast.FuncDecl) bool { return fd.Recv == nil && strings.HasPrefix(fd.Name.Name, "Test") }
	type edited struct {
		name string
		fd   *ast.FuncDecl
	}
	var targets []edited
	if every {
		for _, fd := range funcs {
			targets = append(targets, edited{fd.Name.Name, fd})
		}
	} else {
		if fd := pick(isTest); fd != nil {
			targets = append(targets, edited{"test", fd})
		}
		if fd := pick(func(fd *ast.FuncDecl) bool { return !isTest(fd) }); fd != nil {
			targets = append(targets, edited{"other", fd})
		}
	}
	for _, kind := range targets {
		fd := kind.fd
		start, end := off(fd.Pos()), off(fd.End())
		body := off(fd.Body.Lbrace) + 1
		first := fd.Body.List[0]
		out[kind.name+" deleted"] = src[:start] + src[end:]
		out[kind.name+" skipped"] = src[:body] + "\n\tt.Skip(\"flaky\")" + src[body:]
		out[kind.name+" renamed"] = src[:off(fd.Name.Pos())] + fd.Name.Name + "Renamed" + src[off(fd.Name.End()):]
		out[kind.name+" first statement removed"] = src[:off(first.Pos())] + src[off(first.End()):]
		out[kind.name+" nolint"] = src[:off(first.End())] + " //nolint:errcheck" + src[off(first.End()):]
		out[kind.name+" appended"] = src[:end] + "\n\nfunc TestAppended(t *testing.T) {\n\tif 1 != 2 {\n\t\tt.Fatal(\"no\")\n\t}\n}\n" + src[end:]
		// The last call statement with a t.* or assert call, removed.
		var last ast.Stmt
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if es, ok := n.(*ast.ExprStmt); ok {
				if c, ok := es.X.(*ast.CallExpr); ok {
					if sel, ok := c.Fun.(*ast.SelectorExpr); ok {
						if id, ok := sel.X.(*ast.Ident); ok && (id.Name == "t" || id.Name == "assert" || id.Name == "require") {
							last = es
						}
					}
				}
			}
			return true
		})
		if last != nil {
			out[kind.name+" assertion removed"] = src[:off(last.Pos())] + src[off(last.End()):]
		}
	}
	if f.Name != nil {
		e := off(f.Name.End())
		out["import added"] = src[:e] + "\n\nimport _ \"embed\"\n" + src[e:]
	}
	// Declarations of types, variables and constants: deleted, renamed,
	// and one with an exported name added beside them.
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok == token.IMPORT || len(gd.Specs) == 0 {
			continue
		}
		var name *ast.Ident
		switch sp := gd.Specs[0].(type) {
		case *ast.TypeSpec:
			name = sp.Name
		case *ast.ValueSpec:
			name = sp.Names[0]
		}
		if name == nil || name.Name == "_" {
			continue
		}
		k := gd.Tok.String()
		if _, done := out[k+" deleted"]; done {
			continue
		}
		start, end := off(gd.Pos()), off(gd.End())
		out[k+" deleted"] = src[:start] + src[end:]
		out[k+" renamed"] = src[:off(name.Pos())] + name.Name + "Renamed" + src[off(name.End()):]
		out[k+" added"] = src[:end] + "\n\n" + k + " AddedBeside" + map[string]string{"type": " int", "var": " = 1", "const": " = 1"}[k] + "\n" + src[end:]
	}
	// Declarations changed in place: a struct type given a field, a
	// table's first row deleted, a value doubled.
	inPlace := map[string]bool{}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok == token.IMPORT {
			continue
		}
		for _, sp := range gd.Specs {
			switch sp := sp.(type) {
			case *ast.TypeSpec:
				if st, ok := sp.Type.(*ast.StructType); ok && !inPlace["field"] {
					inPlace["field"] = true
					at := off(st.Fields.Opening) + 1
					out["type field added"] = src[:at] + "\n\tAddedField int\n" + src[at:]
				}
			case *ast.ValueSpec:
				if len(sp.Values) == 0 {
					continue
				}
				if cl, ok := sp.Values[0].(*ast.CompositeLit); ok && len(cl.Elts) > 1 && !inPlace["row"] {
					inPlace["row"] = true
					out[gd.Tok.String()+" first row deleted"] = src[:off(cl.Elts[0].Pos())] + src[off(cl.Elts[1].Pos()):]
				} else if !inPlace["value"] {
					inPlace["value"] = true
					v := sp.Values[0]
					out[gd.Tok.String()+" value changed"] = src[:off(v.Pos())] + "2*(" + src[off(v.Pos()):off(v.End())] + ")" + src[off(v.End()):]
				}
			}
		}
	}
	return out
}

// TestMaskParityOnRealFiles analyzes edits of real Go files (this module's,
// and large files of the standard library) with and without masking: run
// fails the test when the findings differ in anything (type, severity, line,
// test, message, id).
func TestMaskParityOnRealFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: mask parity parses every function of the real-file corpus both ways (about 10 s); go test ./... (without -short) runs it, as .ci/run does")
	}
	var files []string
	// testdata/maskcorpus: table-driven subtests, a support package's
	// helpers and a production file's types, variables and constants, which
	// the files above have few of.
	for _, pat := range []string{"../../internal/*/*.go", "../../internal/*/*/*.go", "../../cmd/ralph-gate/*.go", "testdata/maskcorpus/*.go"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	for _, p := range []string{"net/http/serve_test.go", "net/http/transport_test.go", "strconv/atof_test.go", "go/parser/parser.go", "go/types/api_test.go", "encoding/json/decode_test.go", "net/http/server.go", "math/big/int_test.go"} {
		files = append(files, filepath.Join(testgit.GoRoot(t), "src", p))
	}
	edits := 0
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		name := "pkg/" + filepath.Base(p)
		for what, edited := range goEdits(t, string(b), strings.Contains(p, "maskcorpus")) {
			before := len(maskMismatch)
			run(mod(name, string(b), edited))
			if len(maskMismatch) > before {
				t.Errorf("%s, %s: masked analysis differs:\n%s", p, what, maskMismatch[len(maskMismatch)-1])
				maskMismatch = maskMismatch[:before]
			}
			edits++
		}
	}
	if edits < 500 {
		t.Fatalf("only %d edits analyzed", edits)
	}
	t.Logf("%d edits of %d files", edits, len(files))
}

// TestParsedPairMasked: a masking analyzer wants both versions of a modified
// file when it read only one of them before (masking both costs less than
// parsing the other whole), and neither when it read both.
func TestParsedPairMasked(t *testing.T) {
	src := "package p\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif 1 != 1 {\n\t\tt.Fatal(\"x\")\n\t}\n}\n"
	const p = "p/a_test.go"
	for _, masked := range []bool{false, true} {
		a := New(nil)
		if masked {
			a.MaskUnchanged()
		}
		a.Analyze(Change{Files: []FileChange{{NewPath: p, NewKey: "k1", New: []byte(src)}}})
		o, n := a.ParsedPair(p, "k1", p, "k2")
		if (o != nil) == masked || n != nil {
			t.Errorf("masked=%v, one version read: ParsedPair = %v, %v; want the first only when not masking", masked, o, n)
		}
		a.Analyze(Change{Files: []FileChange{{NewPath: p, NewKey: "k2", New: []byte(src + "\n")}}})
		if o, n := a.ParsedPair(p, "k1", p, "k2"); o == nil || n == nil {
			t.Errorf("masked=%v, both versions read: ParsedPair = %v, %v; want both", masked, o, n)
		}
	}
}
