package golang

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

func TestExtractMarkers(t *testing.T) {
	src := `package store

import (
	"errors"
	"os"
)

// ErrClosed is returned after Close.
var ErrClosed = errors.New("closed") //nolint:gochecknoglobals // sentinel

const (
	Version = "1.2"
	internalLimit = 10
)

type Store struct{ f *os.File }

type entry[K comparable, V any] struct{}

type Cache[K comparable] struct{}

func (c *Cache[K]) Get(k K) {}

func (s *Store) Close() error {
	_ = s.f.Sync()
	err := s.f.Close()
	_ = err
	return nil
}

func (e *entry[K, V]) Key() K { var k K; return k }

func (s *Store) load() {}

// Put writes a value.
//
//lint:ignore U1000 kept for the v2 API
func (s *Store) Put(key string) error {
	if key == "test@example.com" {
		return nil
	}
	if err := s.write(key); err != nil {
		return nil
	}
	if err := s.sync(); err != nil {
	}
	switch key {
	case "admin", "":
		return ErrClosed
	case "42":
	}
	if n := len(key); n == 1 || n == 1337 || n != -7 {
		return nil
	}
	_, _ = s.f.Write([]byte(key)) // nolint
	_ = fmt.Sprintf("not an error %s", key)
	return nil
}

func helper() {
	//#nosec G104 -- the error is logged elsewhere
	os.Remove("x")
	// coverage:ignore
	panic("unreachable")
	/* this comment says nolint in passing, which is prose */
}
`
	f := extract(t, "store/store.go", src)
	wantSupp := []testscan.Marker{
		{Line: 9, Kind: "nolint", Text: "nolint:gochecknoglobals"},
		{Line: 25, Kind: "discarded-error", Text: "_ = s.f.Sync()"},
		{Line: 27, Kind: "discarded-error", Text: "_ = err"},
		{Line: 37, Kind: "nolint", Text: "lint:ignore U1000"},
		{Line: 42, Kind: "swallowed-error", Text: "if err != nil { return nil }"},
		{Line: 45, Kind: "swallowed-error", Text: "if err != nil {}"},
		{Line: 55, Kind: "nolint", Text: "nolint"},
		{Line: 55, Kind: "discarded-error", Text: "_, _ = s.f.Write([]byte(key))"},
		{Line: 61, Kind: "nolint", Text: "#nosec G104"},
		{Line: 63, Kind: "coverage-ignore", Text: "coverage:ignore"},
	}
	if diff := cmp.Diff(wantSupp, f.Suppressions); diff != "" {
		t.Errorf("suppressions (-want +got):\n%s", diff)
	}
	wantCmp := []testscan.Marker{
		{Line: 39, Kind: "literal", Text: `"test@example.com"`},
		{Line: 48, Kind: "literal", Text: `"admin"`},
		{Line: 50, Kind: "literal", Text: `"42"`},
		{Line: 52, Kind: "literal", Text: "1337"},
		{Line: 52, Kind: "literal", Text: "-7"},
	}
	if diff := cmp.Diff(wantCmp, f.Comparisons); diff != "" {
		t.Errorf("comparisons (-want +got):\n%s", diff)
	}
	wantExports := []testscan.Symbol{
		{Name: "ErrClosed", Kind: "var", Line: 9},
		{Name: "Version", Kind: "const", Line: 12},
		{Name: "Store", Kind: "type", Line: 16},
		{Name: "Cache", Kind: "type", Line: 20},
		{Name: "Cache.Get", Kind: "method", Line: 22},
		{Name: "Store.Close", Kind: "method", Line: 24},
		{Name: "Store.Put", Kind: "method", Line: 38},
	}
	if diff := cmp.Diff(wantExports, f.Exports); diff != "" {
		t.Errorf("exports (-want +got):\n%s", diff)
	}
	if len(f.Tests) != 0 || len(f.Bypasses) != 0 || f.Partial {
		t.Errorf("tests %v, bypasses %v, partial %v; want none", f.Tests, f.Bypasses, f.Partial)
	}
}

func TestExtractExportsSkipTestAndMainPackages(t *testing.T) {
	for _, tc := range []struct{ name, path, src string }{
		{"test file", "x_test.go", "package x\n\nfunc Helper() {}\n\ntype Fixture struct{}\n"},
		{"main package", "cmd/tool/main.go", "package main\n\nfunc Run() {}\n\nfunc main() { Run() }\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := extract(t, tc.path, tc.src).Exports; len(got) != 0 {
				t.Errorf("Exports = %v, want none", got)
			}
		})
	}
}

func TestExtractBypasses(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []testscan.Marker
	}{
		{
			name: "TestMain that never runs the tests",
			src:  "package p\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestMain(m *testing.M) {\n\tsetup()\n\tos.Exit(0)\n}\n",
			want: []testscan.Marker{
				{Line: 8, Kind: "forced-exit", Text: "TestMain without m.Run"},
				{Line: 10, Kind: "forced-exit", Text: "os.Exit(0)"},
			},
		},
		{
			name: "a normal TestMain",
			src:  "package p\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestMain(m *testing.M) {\n\tcode := m.Run()\n\tteardown()\n\tos.Exit(code)\n}\n",
		},
		{
			name: "os.Exit(0) inside a test",
			src:  "package p\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestFlaky(t *testing.T) {\n\tif flaky() {\n\t\tos.Exit(0)\n\t}\n}\n\nfunc helper() { os.Exit(0) }\n",
			want: []testscan.Marker{{Line: 10, Kind: "forced-exit", Text: "os.Exit(0)"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := extract(t, "main_test.go", tt.src)
			if diff := cmp.Diff(tt.want, f.Bypasses); diff != "" {
				t.Errorf("bypasses (-want +got):\n%s", diff)
			}
		})
	}
}

// A directive counts only where linters read it: at the start of a comment.
func TestCommentMarkerAtStartOnly(t *testing.T) {
	for _, tc := range []struct {
		comment string
		want    string
	}{
		{"//nolint:errcheck // the close error is logged", "nolint:errcheck"},
		{"//nolint", "nolint"},
		{"/* nolint:gosec */", "nolint:gosec"},
		{"//lint:ignore SA1019 old API", "lint:ignore SA1019"},
		{"// see the //nolint below", ""},
		{"// TODO: drop //nolint:errcheck once fixed", ""},
	} {
		kind, text, ok := commentMarker(tc.comment)
		got := ""
		if ok && kind == "nolint" {
			got = text
		}
		if got != tc.want {
			t.Errorf("commentMarker(%q) = %q, want %q", tc.comment, got, tc.want)
		}
	}
}

func TestExtractPlaceholders(t *testing.T) {
	src := "package calc\n\nimport (\n\t\"errors\"\n\t\"fmt\"\n)\n\n" +
		"// TODO(ana): handle overflow\n" +
		"func Mul(a, b int) int { panic(\"not implemented\") }\n\n" +
		"// Div divides. A TODO later in a comment is not one; XXXL is not a marker.\n" +
		"func Div(a, b int) int {\n" +
		"\ts := \"TODO: a string, not a comment\"\n" +
		"\t_ = s\n" +
		"\t/* FIXME: zero */\n" +
		"\tpanic(errors.New(\"TODO\"))\n" +
		"}\n\n" +
		"func F() { panic(fmt.Errorf(\"unimplemented: %d\", 1)) }\n" +
		"func G() { panic(\"index out of range\") }\n" +
		"func H(err error) { panic(err) }\n"
	f, err := New().Extract("calc.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []testscan.Marker{
		{Line: 8, Kind: "todo-comment", Text: "TODO(ana): handle overflow"},
		{Line: 15, Kind: "todo-comment", Text: "FIXME: zero"},
		{Line: 9, Kind: "not-implemented", Text: `panic("not implemented")`},
		{Line: 16, Kind: "not-implemented", Text: `panic(errors.New("TODO"))`},
		{Line: 19, Kind: "not-implemented", Text: `panic(fmt.Errorf("unimplemented: %d", 1))`},
	}
	if diff := cmp.Diff(want, f.Placeholders); diff != "" {
		t.Errorf("placeholders (-want +got):\n%s", diff)
	}
}
