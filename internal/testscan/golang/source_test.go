package golang

import (
	"go/ast"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// TestSegmentsMatchWholeScan checks that scanning a unit one declaration at a
// time gives every node the tokens and hash text a scan of the whole unit gives.
func TestSegmentsMatchWholeScan(t *testing.T) {
	sample, err := os.ReadFile("testdata/sample_test.go.txt")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		units []*unit
	}{
		{"whole file", []*unit{parseWhole(sample)}},
		{"fragment", parseFragment(append([]byte("\n\n\n}\n"), sample[len(sample)/3:]...))},
		{"raw strings with CR and non-ASCII", []*unit{parseWhole([]byte(
			"package p\n\nvar a = `x\r\ny`\n\nfunc Tést(t *testing.T) {\n\tb := `p\r\nq`\n\tif a != b {\n\t\tt.Error(\"é\")\n\t}\n}\n"))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, u := range tt.units {
				if u == nil {
					t.Fatal("unit did not parse")
				}
				whole := &source{src: u.src, lexed: lex(u.src, 0, len(u.src), &lexed{})}
				nodes := 0
				ast.Inspect(u.file, func(n ast.Node) bool {
					if _, ok := n.(*ast.File); n == nil || ok {
						return true // span reads nodes within one declaration
					}
					nodes++
					got := u.span(n)
					from, to := u.off(n.Pos()), u.off(n.End())
					i, j := tokenAt(whole.toks, from), tokenAt(whole.toks, to)
					want := tokenSeq{src: whole, toks: whole.toks[i:max(i, j)], first: i}
					if diff := cmp.Diff(seqTexts(want), seqTexts(got)); diff != "" {
						t.Fatalf("%T at %d: tokens (-whole +segment):\n%s", n, from, diff)
					}
					if w, g := hashInput(want), hashInput(got); w != g {
						t.Fatalf("%T at %d: hash input %q, want %q", n, from, g, w)
					}
					return true
				})
				if nodes < 10 {
					t.Fatalf("walked %d nodes", nodes)
				}
			}
		})
	}
}

func seqTexts(seq tokenSeq) []string {
	out := []string{}
	for i := range seq.toks {
		out = append(out, seq.toks[i].kind().String()+" "+seq.lit(i))
	}
	return out
}

func hashInput(seq tokenSeq) string {
	var h hasher
	h.reset().add(seq)
	if h.pieces == 0 {
		return ""
	}
	return string(h.one)
}

// TestMarkersInTests checks the code markers that the test reader finds as it
// walks test functions, subtests and table loops, among those of other code.
func TestMarkersInTests(t *testing.T) {
	src := `package p

import (
	"os"
	"testing"
)

func helper() error {
	_ = f.Close()
	return nil
}

func TestA(t *testing.T) {
	_ = err
	for _, tc := range []struct{ name string }{{name: "x"}} {
		t.Run(tc.name, func(t *testing.T) {
			if err != nil {
			}
			if got == "special" { t.Fatal(got) }
		})
	}
	t.Run(func() string { _ = err; return "odd" }(), func(t *testing.T) {
		switch v { case 42: os.Exit(0) }
	})
}

func other(key string) error {
	if key == "other@example.com" {
		return nil
	}
	return nil
}
`
	f := extract(t, "a_test.go", src)
	want := &testscan.File{
		Suppressions: []testscan.Marker{
			{Line: 9, Kind: "discarded-error", Text: "_ = f.Close()"},
			{Line: 14, Kind: "discarded-error", Text: "_ = err"},
			{Line: 17, Kind: "swallowed-error", Text: "if err != nil {}"},
			{Line: 22, Kind: "discarded-error", Text: "_ = err"},
		},
		Bypasses: []testscan.Marker{{Line: 23, Kind: "forced-exit", Text: "os.Exit(0)"}},
		Comparisons: []testscan.Marker{
			{Line: 19, Kind: "literal", Text: `"special"`},
			{Line: 23, Kind: "literal", Text: "42"},
			{Line: 28, Kind: "literal", Text: `"other@example.com"`},
		},
	}
	got := &testscan.File{Suppressions: f.Suppressions, Bypasses: f.Bypasses, Comparisons: f.Comparisons}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("markers (-want +got):\n%s", diff)
	}
}

func TestMayMark(t *testing.T) {
	tests := []struct {
		comment string
		want    bool
	}{
		{"//nolint:errcheck", true},
		{"// NOLINT", true},
		{"//lint:ignore SA1019 old API", true},
		{"// #NoSec G104", true},
		{"/* Coverage: Ignore */", true},
		{"// a plain comment about linting", true}, // "lint": commentMarker decides
		{"// a plain comment", false},
		{"// nolİnt", true}, // non-ASCII: left to commentMarker
		{"", false},
	}
	for _, tt := range tests {
		t.Run(tt.comment, func(t *testing.T) {
			if got := mayMark(tt.comment); got != tt.want {
				t.Errorf("mayMark(%q) = %v, want %v", tt.comment, got, tt.want)
			}
			if _, _, ok := commentMarker(tt.comment); ok && !tt.want {
				t.Errorf("commentMarker(%q) found a marker that mayMark rules out", tt.comment)
			}
		})
	}
}
