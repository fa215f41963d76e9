package golang

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testgit"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// parserDecls returns the top-level declarations of src as go/parser sees
// them, or ok=false when src does not parse.
func parserDecls(src []byte) ([]topDecl, bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, false
	}
	tf := fset.File(f.FileStart)
	off := func(p token.Pos) int { return tf.Offset(p) }
	out := []topDecl{{start: off(f.Package), end: off(f.Name.End())}}
	for _, d := range f.Decls {
		td := topDecl{start: off(d.Pos()), end: off(d.End())}
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			td.kind = declImport
		}
		if fd, ok := d.(*ast.FuncDecl); ok {
			td.kind = declFunc
			td.method = fd.Recv != nil
		}
		out = append(out, td)
	}
	return out, true
}

// goFiles lists Go files to check scanDecls on: this repository's and some of
// the standard library's (syntax of every kind, generics, build tags, cgo
// comments).
func goFiles(t testing.TB) []string {
	var files []string
	roots := []string{"../../.."}
	for _, p := range []string{"go/parser", "go/types", "net/http", "strconv", "math/big", "regexp/syntax", "slices", "encoding/json"} {
		roots = append(roots, filepath.Join(testgit.GoRoot(t), "src", p))
	}
	for _, root := range roots {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
				files = append(files, p)
			}
			return nil
		})
	}
	if len(files) < 300 {
		t.Fatalf("only %d Go files found", len(files))
	}
	return files
}

// TestScanDeclsMatchesParser: on every file that parses, scanDecls finds the
// declarations go/parser finds, with the same extents and kinds.
func TestScanDeclsMatchesParser(t *testing.T) {
	checked := 0
	for _, p := range goFiles(t) {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		want, ok := parserDecls(src)
		if !ok {
			continue
		}
		got, ok := scanDecls(src)
		if !ok {
			t.Errorf("%s: scanDecls failed on a file that parses", p)
			continue
		}
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(topDecl{})); diff != "" {
			t.Errorf("%s: declarations (-parser +scanDecls):\n%s", p, diff)
		}
		checked++
	}
	t.Logf("%d files", checked)
}

func FuzzScanDecls(f *testing.F) {
	for _, s := range []string{
		"package p\n\nfunc TestA(t *testing.T) {\n\tt.Log(\"}\")\n}\n\nvar x = func() {}\n\nfunc f() (int, error) { return 0, nil }\n",
		"package p; import \"testing\"; func TestA(t *testing.T) { /* { */ }; type T struct{ a int }",
		"package p\nvar (\n\ta = `\n}\n`\n\tb = '}'\n)\nfunc (r *R) M() {}\nfunc G[T any]() {}\nfunc ExampleX() {\n\t// Output:\n}\n",
		"\xef\xbb\xbfpackage p\nconst c = 1e+5 + 0x1p-2 + .5\nfunc FuzzX(f *testing.F) { f.Add(1) }\n",
		"package p\nvar v = \n\tfunc() int { return 1 }()\nfunc TestMain(m *testing.M) {}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		got, ok := scanDecls(src)
		want, parses := parserDecls(src)
		if !parses {
			return
		}
		if !ok {
			t.Fatalf("scanDecls failed on source that parses:\n%s", src)
		}
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(topDecl{})); diff != "" {
			t.Fatalf("declarations (-parser +scanDecls):\n%s\nsource:\n%s", diff, src)
		}
	})
}

// TestKeepHelperParity: for every helper of every test file that parses,
// the file narrowed to the helper's name (KeepHelper) gives the helper the
// same checks and calls, on the same lines, as the whole file.
func TestKeepHelperParity(t *testing.T) {
	x := &Extractor{}
	checked := 0
	for _, p := range goFiles(t) {
		if !strings.HasSuffix(p, "_test.go") {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		whole, err := x.Extract(p, src)
		if err != nil || whole.Partial {
			continue
		}
		for _, h := range whole.Helpers {
			if strings.Contains(h, ".") {
				continue // a method: KeepHelper keeps them all
			}
			narrowed, ok := x.KeepHelper(p, src, h)
			if !ok {
				continue
			}
			if len(narrowed.Src) >= len(src) {
				t.Errorf("%s: narrowing to %s kept everything", p, h)
			}
			got, err := x.ExtractMasked(p, narrowed)
			if err != nil {
				t.Fatalf("%s, %s: %v", p, h, err)
			}
			of := func(f *testscan.File) (out []testscan.Assertion) {
				for _, a := range f.HelperAssertions {
					if a.Helper == h {
						out = append(out, a)
					}
				}
				return out
			}
			if d := cmp.Diff(of(whole), of(got)); d != "" {
				t.Errorf("%s: helper %s's checks differ (-whole +narrowed):\n%s", p, h, d)
			}
			if d := cmp.Diff(whole.HelperCalls[h], got.HelperCalls[h]); d != "" {
				t.Errorf("%s: helper %s's calls differ (-whole +narrowed):\n%s", p, h, d)
			}
			checked++
		}
	}
	if checked < 100 {
		t.Fatalf("only %d helpers checked", checked)
	}
	t.Logf("%d helpers", checked)
}

// FuzzBlankDecls: blanking every function of a source leaves each word on
// a line that maps (LineMap) to an original line that holds it.
func FuzzBlankDecls(f *testing.F) {
	for _, s := range []string{
		"package p\n\nfunc TestA(t *testing.T) {\n\tt.Log(\"}\")\n}\n\nvar x = func() {}\n\nfunc f() (int, error) { return 0, nil }\n",
		"package p; import \"testing\"; func TestA(t *testing.T) { /* { */ }; type T struct{ a int }",
		"package p\nvar (\n\ta = `\n}\n`\n)\nfunc (r *R) M() {}\nfunc G[T any]() {\n}\n\n\nfunc H() {\n\t_ = 1\n} // after\nconst c = 1\n",
		"package p\nfunc a() {\n};  func b() {\n\n}\nfunc c() {}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		ds, ok := scanDecls(src)
		if !ok {
			return
		}
		var funcs []topDecl
		for _, d := range ds {
			if d.kind == declFunc && d.end > d.start {
				funcs = append(funcs, d)
			}
		}
		m := blankDecls(src, funcs)
		orig := strings.Split(string(src), "\n")
		for i, line := range strings.Split(string(m.Src), "\n") {
			l := m.Lines.Line(i + 1)
			for _, word := range strings.Fields(line) {
				if l < 1 || l > len(orig) || !strings.Contains(orig[l-1], word) {
					t.Fatalf("masked line %d %q maps to line %d, which does not hold %q\nmasked:\n%s", i+1, line, l, word, m.Src)
				}
			}
		}
	})
}

// BenchmarkScanDecls scans every Go file of goFiles (this repository's and
// some of the standard library's) once per iteration.
func BenchmarkScanDecls(b *testing.B) {
	var srcs [][]byte
	size := 0
	for _, p := range goFiles(b) {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, src)
		size += len(src)
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		for _, src := range srcs {
			scanDecls(src)
		}
	}
}

// TestMaskUnchangedKeepsReadersOfChangedDecls: when a table, type or
// constant of a test file changes, the unchanged functions that name it
// (directly, or through an unchanged table of a changed type) are kept in
// both versions; the others are still blanked.
func TestMaskUnchangedKeepsReadersOfChangedDecls(t *testing.T) {
	const head = "package p\n\nimport \"testing\"\n\n"
	funcs := "func TestTable(t *testing.T) {\n\tfor _, c := range cases {\n\t\tif c.in != c.want {\n\t\t\tt.Error(c)\n\t\t}\n\t}\n}\n\n" +
		"func TestLimit(t *testing.T) {\n\tif limit != 3 {\n\t\tt.Fatal(limit)\n\t}\n}\n\n" +
		"func TestOther(t *testing.T) {\n\tif 1+1 != 2 {\n\t\tt.Fatal(\"sum\")\n\t}\n}\n"
	for _, tc := range []struct {
		name     string
		old, new string
		kept     []string // functions left in both masked versions
	}{
		{"table row deleted",
			"var cases = []row{{1, 1}, {2, 2}}\n\ntype row struct{ in, want int }\n\nconst limit = 3\n\n",
			"var cases = []row{{1, 1}}\n\ntype row struct{ in, want int }\n\nconst limit = 3\n\n",
			[]string{"TestTable"}},
		{"type changed: the table of that type is read too",
			"var cases = []row{{1, 1}}\n\ntype row struct{ in, want int }\n\nconst limit = 3\n\n",
			"var cases = []row{{1, 1}}\n\ntype row struct{ want, in int }\n\nconst limit = 3\n\n",
			[]string{"TestTable"}},
		{"constant changed",
			"var cases = []row{{1, 1}}\n\ntype row struct{ in, want int }\n\nconst limit = 3\n\n",
			"var cases = []row{{1, 1}}\n\ntype row struct{ in, want int }\n\nconst (\n\tlimit = 4\n\tother = 1\n)\n\n",
			[]string{"TestLimit"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mo, mn, ok := MaskUnchanged([]byte(head+tc.old+funcs), []byte(head+tc.new+funcs), true, 0)
			if !ok {
				t.Fatal("not masked")
			}
			for _, fn := range []string{"TestTable", "TestLimit", "TestOther"} {
				want := slices.Contains(tc.kept, fn)
				for side, m := range map[string]testscan.Masked{"old": mo, "new": mn} {
					if got := bytes.Contains(m.Src, []byte("func "+fn)); got != want {
						t.Errorf("%s version: %s kept = %v, want %v", side, fn, got, want)
					}
				}
			}
		})
	}
	// A changed declaration that does not parse alone: nothing is masked.
	if _, _, ok := MaskUnchanged([]byte(head+"var x = 1\n\n"+funcs), []byte(head+"var x = (1\n\n"+funcs), true, 0); ok {
		t.Error("masked around a declaration that does not parse")
	}
}

func TestSpecNames(t *testing.T) {
	for decl, want := range map[string][]string{
		"var cases = []row{{1}}":      {"cases"},
		"var a, b = 1, 2":             {"a", "b"},
		"const /* c */ limit int = 3": {"limit"},
		"type T[K any] struct{ k K }": {"T"},
		"type A = B":                  {"A"},
		"var _ = Suite(&S{})":         nil, // registers a suite
		"var (\n\ta = 1\n)":           nil, // a group
		"variable := 1":               nil,
		"package p":                   nil,
	} {
		if got := specNames([]byte(decl)); !slices.Equal(got, want) {
			t.Errorf("specNames(%q) = %q, want %q", decl, got, want)
		}
	}
}

// TestMaskUnchangedBlanksUnreadDecls: in a test file, an unchanged table
// that only blanked functions name is blanked too; one a kept function
// names stays, and so does a table that a kept table names.
func TestMaskUnchangedBlanksUnreadDecls(t *testing.T) {
	const head = "package p\n\nimport \"testing\"\n\n" +
		"var big = []string{\"a\", \"b\"}\n\nvar used = []string{\"c\"}\n\nvar deep = []string{\"d\"}\n\nvar viaDeep = len(deep)\n\n" +
		"func TestBig(t *testing.T) {\n\tif len(big) != 2 {\n\t\tt.Fatal(big)\n\t}\n}\n\n"
	old := head + "func TestUsed(t *testing.T) {\n\tif len(used) != 1 || viaDeep != 1 {\n\t\tt.Fatal(used)\n\t}\n}\n"
	new := head + "func TestUsed(t *testing.T) {\n\tif len(used) != 2 || viaDeep != 1 {\n\t\tt.Fatal(used)\n\t}\n}\n"
	mo, mn, ok := MaskUnchanged([]byte(old), []byte(new), true, 0)
	if !ok {
		t.Fatal("not masked")
	}
	for _, m := range []testscan.Masked{mo, mn} {
		for decl, want := range map[string]bool{"var big": false, "func TestBig": false, "var used": true, "var viaDeep": true, "var deep": true, "func TestUsed": true} {
			if got := bytes.Contains(m.Src, []byte(decl)); got != want {
				t.Errorf("%s kept = %v, want %v in\n%s", decl, got, want, m.Src)
			}
		}
	}
}
