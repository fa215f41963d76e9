package analyze

import (
	"bytes"
	"go/scanner"
	"go/token"
	"os"
	"slices"
	"testing"
)

func TestGoFuncsScan(t *testing.T) {
	src := `package p

import "fmt"

type (
	A struct{ f func() }
	B = int
)

type C[T any] struct{}

func F(x func(int) int) {}

func (c *C[T]) M() { func() {}() }

func (B2) N() {}

var v = func() {}

func G[T any]() {}
`
	var got []string
	goFuncs("p.go", []byte(src), func(s string) { got = append(got, s) })
	want := []string{"A", "B", "C", "F", ".M", ".N", "G"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// scansClean reports whether go/scanner reads src without an error.
func scansClean(src []byte) bool {
	fset := token.NewFileSet()
	var sc scanner.Scanner
	errs := 0
	sc.Init(fset.AddFile("p.go", -1, len(src)), src, func(token.Position, string) { errs++ }, scanner.ScanComments)
	for {
		if _, tok, _ := sc.Scan(); tok == token.EOF {
			return errs == 0
		}
	}
}

func TestGoFuncsSkipsBodies(t *testing.T) {
	src := "package p\n\nfunc A() {\n\ts := \"}\" + `\n}\nfunc X() {}\n` + string('}') // }\n\t/* } func Y() {} */\n\tif true { _ = T{} }\n}\n\nvar t = T{f: func() {}}\n\ntype B struct {\n\tc chan struct{}\n}\n\nfunc (B) M() {}\n"
	var got, want []string
	goFuncs("p.go", []byte(src), func(s string) { got = append(got, s) })
	scanGoFuncs("p.go", []byte(src), func(s string) { want = append(want, s) }, false)
	if !slices.Equal(got, want) || !slices.Equal(got, []string{"A", "B", ".M"}) {
		t.Errorf("got %q, scanning all %q", got, want)
	}
}

func FuzzGoFuncs(f *testing.F) {
	f.Add([]byte("package p\nfunc A() { s := \"{\" }\ntype B struct{}\nfunc (b *B) M() {}\n"))
	f.Add([]byte("package p\nvar x = T{`}`, '}', /* } */ 1}\nfunc F() {\n// }\n}\ntype (\n\tC int\n)\n"))
	f.Add([]byte("func F() {"))
	f.Add([]byte("}}} func G() {}"))
	f.Fuzz(func(t *testing.T, src []byte) {
		var got, want []string
		goFuncs("p.go", src, func(s string) { got = append(got, s) })
		if !scansClean(src) {
			return
		}
		scanGoFuncs("p.go", src, func(s string) { want = append(want, s) }, false)
		if !slices.Equal(got, want) {
			t.Fatalf("skipping bodies read %q, scanning all %q", got, want)
		}
	})
}

func BenchmarkGoFuncs(b *testing.B) {
	src, err := os.ReadFile("removed.go")
	if err != nil {
		b.Fatal(err)
	}
	src = bytes.Repeat(src, 4)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		goFuncs("p.go", src, func(string) {})
	}
}
