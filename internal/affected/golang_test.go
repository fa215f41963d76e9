package affected

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testgit"
)

// writeTree writes files (slash paths) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		testgit.Write(t, dir, name, body)
	}
}

// graphModule is a module whose packages cover each way of being affected:
// b imports a, d's external tests import a, e reads ../a/testdata (reaches
// out), c stands alone, a/inner is a package below a.
var graphModule = map[string]string{
	"go.mod":              "module example.com/m\n\ngo 1.22\n",
	"a/a.go":              "package a\n\nfunc A() int { return 1 }\n",
	"a/testdata/x.txt":    "x\n",
	"a/inner/inner.go":    "package inner\n\nfunc I() int { return 2 }\n",
	"b/b.go":              "package b\n\nimport (\n\t_ \"embed\"\n\n\t\"example.com/m/a\"\n)\n\n//go:embed static/page.html\nvar page string\n\nfunc B() int { return a.A() + len(page) }\n",
	"b/static/page.html":  "<p>b</p>\n",
	"c/c.go":              "package c\n\nfunc C() int { return 3 }\n",
	"c/c_test.go":         "package c\n\nimport \"testing\"\n\nfunc TestC(t *testing.T) {}\n",
	"d/d.go":              "package d\n",
	"d/d_test.go":         "package d_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/a\"\n)\n\nfunc TestD(t *testing.T) { _ = a.A() }\n",
	"e/e.go":              "package e\n",
	"e/e_test.go":         "package e\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestE(t *testing.T) { _, _ = os.ReadFile(\"../a/testdata/x.txt\") }\n",
	"f/f.go":              "package f\n\nimport \"example.com/m/b\"\n\nfunc F() int { return b.B() }\n",
	"docs/README.md":      "docs\n",
	"fix/fix.go":          "package fix\n\nimport (\n\t\"os\"\n\t\"path/filepath\"\n\t\"runtime\"\n)\n\n// Load reads a fixture next to this file.\nfunc Load(name string) []byte {\n\t_, f, _, _ := runtime.Caller(0)\n\tb, _ := os.ReadFile(filepath.Join(filepath.Dir(f), \"testdata\", name))\n\treturn b\n}\n",
	"fix/testdata/x.json": "{}\n",
	"h/h.go":              "package h\n",
	"h/h_test.go":         "package h\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/fix\"\n)\n\nfunc TestH(t *testing.T) { _ = fix.Load(\"x.json\") }\n",
	"vendor/modules.txt":  "",
}

func loadGraph(t *testing.T) *Go {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatal("go is not installed: the affected tests need it")
	}
	dir := t.TempDir()
	files := map[string]string{}
	for k, v := range graphModule {
		if k != "vendor/modules.txt" {
			files[k] = v
		}
	}
	writeTree(t, dir, files)
	g, err := LoadGo(context.Background(), "go", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestGoAffected(t *testing.T) {
	g := loadGraph(t)
	if g.ModulePath != "example.com/m" {
		t.Fatalf("module path %q", g.ModulePath)
	}
	for _, p := range g.Packages {
		if want := p.ImportPath == "example.com/m/e" || p.ImportPath == "example.com/m/fix"; p.ReachesOut != want {
			t.Errorf("%s: ReachesOut = %v, want %v", p.ImportPath, p.ReachesOut, want)
		}
		// fix's own code locates files: its importers' tests run it. e's
		// tests alone reach out.
		if want := p.ImportPath == "example.com/m/fix"; p.CodeReachesOut != want {
			t.Errorf("%s: CodeReachesOut = %v, want %v", p.ImportPath, p.CodeReachesOut, want)
		}
	}
	m := func(s ...string) []string {
		for i := range s {
			s[i] = "example.com/m/" + s[i]
		}
		return s
	}
	tests := []struct {
		name    string
		changed []string
		want    []string
		all     bool
	}{
		{"a leaf package", []string{"c/c.go"}, m("c", "e", "fix", "h"), false},
		{"a package others import, directly and through tests", []string{"a/a.go"}, m("a", "b", "d", "e", "f", "fix", "h"), false},
		{"a test file: its package's tests only", []string{"c/c_test.go"}, m("c", "e", "fix", "h"), false},
		{"testdata: its package's tests only", []string{"a/testdata/x.txt"}, m("a", "e", "fix", "h"), false},
		{"an embedded file: the importers too", []string{"b/static/page.html"}, m("b", "e", "f", "fix", "h"), false},
		{"a new file where a package embeds from", []string{"b/static/new.css"}, m("b", "e", "f", "fix", "h"), false},
		{"a sub-package: its importers, and the package above it reads it", []string{"a/inner/inner.go"}, m("a", "a/inner", "e", "fix", "h"), false},
		{"a file outside every package: only the packages that reach out", []string{"docs/README.md"}, m("e", "fix", "h"), false},
		{"a new package", []string{"g/g.go"}, m("e", "fix", "g", "h"), false},
		{"go.mod", []string{"go.mod"}, nil, true},
		{"go.sum", []string{"go.sum"}, nil, true},
		{"vendored code", []string{"vendor/example.org/x/x.go"}, nil, true},
		{"a nested go.work", []string{"tools/go.work"}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := g.Affected(tt.changed)
			if s.All != tt.all {
				t.Fatalf("All = %v (%s), want %v", s.All, s.Why, tt.all)
			}
			if tt.all {
				if !strings.Contains(s.Why, tt.changed[0]) {
					t.Errorf("Why %q does not name %s", s.Why, tt.changed[0])
				}
				return
			}
			if !reflect.DeepEqual(s.Units, tt.want) {
				t.Errorf("Units = %v, want %v", s.Units, tt.want)
			}
		})
	}
}

func TestGoInputs(t *testing.T) {
	g := loadGraph(t)
	dirs, mods, ok := g.Inputs("example.com/m/f")
	if !ok {
		t.Fatal("f not in the graph")
	}
	if want := []string{"a", "b", "f"}; !reflect.DeepEqual(dirs, want) {
		t.Errorf("f's input dirs = %v, want %v", dirs, want)
	}
	if want := []string{"."}; !reflect.DeepEqual(mods, want) {
		t.Errorf("f's modules = %v, want %v", mods, want)
	}
	if dirs, _, _ := g.Inputs("example.com/m/d"); !reflect.DeepEqual(dirs, []string{"a", "d"}) {
		t.Errorf("d's input dirs (its tests import a) = %v", dirs)
	}
	if dirs, _, _ := g.Inputs("example.com/m/e"); !reflect.DeepEqual(dirs, []string{"."}) {
		t.Errorf("e reaches out: its input is the whole tree, got %v", dirs)
	}
	if _, _, ok := g.Inputs("example.com/m/nope"); ok {
		t.Error("a package not in the graph has inputs")
	}
}

// TestGoReachesOut covers the ways a package reads outside its directory.
func TestGoReachesOut(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatal("go is not installed: the affected tests need it")
	}
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"go.mod":            "module example.com/r\n\ngo 1.22\n",
		"join/join_test.go": "package join\n\nimport (\n\t\"path/filepath\"\n\t\"testing\"\n)\n\nfunc TestJ(t *testing.T) { _ = filepath.Join(\"..\", \"x\") }\n",
		"raw/raw_test.go":   "package raw\n\nimport \"testing\"\n\nfunc TestR(t *testing.T) { _ = `a/../../b` }\n",
		"link/link.go":      "package link\n",
		"wd/wd_test.go":     "package wd\n\nimport (\n\t\"os\"\n\t\"path/filepath\"\n\t\"testing\"\n)\n\nfunc TestW(t *testing.T) { d, _ := os.Getwd(); _ = filepath.Dir(filepath.Dir(d)) }\n",
		"caller/c_test.go":  "package caller\n\nimport (\n\trt \"runtime\"\n\t\"testing\"\n)\n\nfunc TestC(t *testing.T) { _, f, _, _ := rt.Caller(0); _ = f }\n",
		"osother/o.go":      "package osother\n\nimport \"os\"\n\nvar _ = os.Getenv(\"X\")\n",
		"plain/plain.go":    "package plain\n\nconst s = \"a..b/c..\"\n",
		"shared/data.txt":   "d\n",
	})
	if err := os.Symlink("../shared", filepath.Join(dir, "link", "data")); err != nil {
		t.Fatal(err)
	}
	g, err := LoadGo(context.Background(), "go", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"example.com/r/join": true, "example.com/r/raw": true, "example.com/r/link": true, "example.com/r/plain": false,
		"example.com/r/wd": true, "example.com/r/caller": true, "example.com/r/osother": false}
	for _, p := range g.Packages {
		if w, ok := want[p.ImportPath]; ok && p.ReachesOut != w {
			t.Errorf("%s: ReachesOut = %v, want %v", p.ImportPath, p.ReachesOut, w)
		}
	}
	if s := g.Affected([]string{"shared/data.txt"}); !reflect.DeepEqual(s.Units, []string{"example.com/r/caller", "example.com/r/join", "example.com/r/link", "example.com/r/raw", "example.com/r/wd"}) {
		t.Errorf("a change read through a link: %v", s.Units)
	}
}

func TestLoadGoError(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"go.mod": "this is not a go.mod\n"})
	_, err := LoadGo(context.Background(), "go", dir, nil)
	if err == nil || !strings.Contains(err.Error(), "go list") {
		t.Fatalf("a broken go.mod: %v", err)
	}
}

// FuzzReadGoList feeds go list's JSON stream, as LoadGo reads it, and asks
// the graph what a change affects.
func FuzzReadGoList(f *testing.F) {
	f.Add(`{"ImportPath":"m/a","Dir":"/r/a","Module":{"Path":"m","Dir":"/r","Main":true},"Imports":["m/b"]}{"ImportPath":"m/b","Dir":"/r/b","DepOnly":true}`, "b/x.go")
	f.Add(`{"ImportPath":"fmt","Standard":true}`, "go.mod")
	f.Add(`{"ImportPath":"m/a","Dir":"/elsewhere","TestImports":["m/a"]}`, "a/a.go\nnew/n.go")
	f.Fuzz(func(t *testing.T, list, changed string) {
		g, err := readGoList("/r", strings.NewReader(list))
		if err != nil {
			return
		}
		s := g.Affected(strings.Split(changed, "\n"))
		if s.All && s.Why == "" {
			t.Fatal("everything affected, with no reason")
		}
		for _, p := range g.Packages {
			g.Inputs(p.ImportPath)
		}
	})
}
