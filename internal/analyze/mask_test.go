package analyze

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// goEdits returns edited versions of a Go file, one per kind of edit a commit
// makes to one function: deleted, skipped, an assertion removed, renamed, a
// line added, a //nolint added; and edits outside functions: an import added.
func goEdits(t *testing.T, src string) map[string]string {
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
	for _, kind := range []struct {
		name string
		want func(*ast.FuncDecl) bool
	}{{"test", isTest}, {"other", func(fd *ast.FuncDecl) bool { return !isTest(fd) }}} {
		fd := pick(kind.want)
		if fd == nil {
			continue
		}
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
	return out
}

// TestMaskParityOnRealFiles analyzes edits of real Go files (this module's,
// and large files of the standard library) with and without masking: run
// fails the test when the findings differ in anything (type, severity, line,
// test, message, id).
func TestMaskParityOnRealFiles(t *testing.T) {
	var files []string
	for _, pat := range []string{"../../internal/*/*.go", "../../internal/*/*/*.go", "../../cmd/ralph-gate/*.go"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	for _, p := range []string{"net/http/serve_test.go", "net/http/transport_test.go", "strconv/atof_test.go", "go/parser/parser.go", "go/types/api_test.go", "encoding/json/decode_test.go", "net/http/server.go", "math/big/int_test.go"} {
		files = append(files, filepath.Join(runtime.GOROOT(), "src", p))
	}
	edits := 0
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		name := "pkg/" + filepath.Base(p)
		for what, edited := range goEdits(t, string(b)) {
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
