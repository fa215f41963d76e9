package golang

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scantest"
)

// blankLines returns n empty lines, standing for the unchanged region a patch
// does not show.
func blankLines(n int) string { return strings.Repeat("\n", n) }

func TestExtractFragments(t *testing.T) {
	tests := []struct {
		name        string
		src         string
		want        []testRow
		wantSupp    []testscan.Marker
		wantAsserts map[string]int
	}{
		{
			name: "hunk starts mid-function after 20 blank lines",
			src: blankLines(20) +
				"\t\tif got != tc.want {\n" + // 21
				"\t\t\tt.Errorf(\"got %v\", got) //nolint:govet\n" +
				"\t\t}\n" +
				"\t})\n" +
				"}\n" + // 25
				"\n" +
				"func TestNext(t *testing.T) {\n" + // 27
				"\tt.Skip(\"flaky\")\n" +
				"\tassert.Equal(t, 1, Next())\n" +
				"}\n", // 30
			want: []testRow{
				{ID: "TestNext", Line: 27, EndLine: 30, Skip: &testscan.Skip{Kind: testscan.SkipCall, Reason: "flaky", Line: 28}},
			},
			wantSupp:    []testscan.Marker{{Line: 22, Kind: "nolint", Text: "nolint:govet"}},
			wantAsserts: map[string]int{"TestNext": 1},
		},
		{
			name: "gap inside a function cuts a block open and closed",
			src: "package p\n\n" +
				"func TestGap(t *testing.T) {\n" + // 3
				"\tv := load()\n" +
				blankLines(3) + // 5-7: hidden "for ... {" and more
				"\t\trequire.NoError(t, v.Err())\n" + // 8
				"\t}\n" + // 9: closes the hidden loop
				"\t_ = err\n" + // 10
				"\tassert.Equal(t, 2, v.N)\n" + // 11
				"}\n" + // 12
				blankLines(5) +
				"func TestTail(t *testing.T) {\n" + // 18
				"\tif v := f(); v != 3 {\n" +
				"\t\tt.Fatal(v)\n" +
				blankLines(2), // the rest is hidden
			want: []testRow{
				{ID: "TestGap", Line: 3, EndLine: 12},
				{ID: "TestTail", Line: 18, EndLine: 23},
			},
			wantSupp:    []testscan.Marker{{Line: 10, Kind: "discarded-error", Text: "_ = err"}},
			wantAsserts: map[string]int{"TestGap": 2, "TestTail": 1},
		},
		{
			name: "syntax error in one test keeps the others",
			src: "package p\n\nimport \"testing\"\n\n" +
				"func TestGood(t *testing.T) {\n" + // 5
				"\tif Sum(1, 2) != 3 {\n\t\tt.Error(\"sum\")\n\t}\n" +
				"}\n" + // 9
				"\n" +
				"func TestBroken(t *testing.T) {\n" + // 11
				"\tx := := 1\n" +
				"\tt.Run(\"still found\", func(t *testing.T) { t.Fail() })\n" +
				"}\n" + // 14
				"\n" +
				"func TestAfter(t *testing.T) {\n" + // 16
				"\tt.Run(\"a b\", func(t *testing.T) {})\n" +
				"}\n",
			want: []testRow{
				{ID: "TestGood", Line: 5, EndLine: 9},
				{ID: "TestBroken/still_found", Line: 13, EndLine: 13},
				{ID: "TestAfter/a_b", Line: 17, EndLine: 17},
			},
			wantAsserts: map[string]int{"TestGood": 1, "TestBroken/still_found": 1},
		},
		{
			name: "table in another piece of the fragment still expands",
			src: blankLines(4) +
				"var cases = []struct{ name string }{\n" + // 5
				"\t{name: \"first\"},\n" +
				"\t{name: \"second\"},\n" +
				"}\n" +
				blankLines(10) +
				"func TestCases(t *testing.T) {\n" + // 19
				"\tfor _, c := range cases {\n" +
				"\t\tt.Run(c.name, func(t *testing.T) { check(t, c) })\n" +
				blankLines(1),
			want: []testRow{
				{ID: "TestCases/first", Line: 6, EndLine: 6},
				{ID: "TestCases/second", Line: 7, EndLine: 7},
			},
		},
		{
			name: "hidden closing brace of a loop: the function still ends at its own brace",
			src: "func TestLoop(t *testing.T) {\n" + // 1
				"\tfor _, x := range xs {\n" +
				"\t\tcheck(t, x)\n" +
				blankLines(1) + // 4: the loop's "}" is hidden
				"\tassert.True(t, ok)\n" +
				"}\n" + // 6
				blankLines(3) +
				"// trailing comment\n",
			want:        []testRow{{ID: "TestLoop", Line: 1, EndLine: 6}},
			wantAsserts: map[string]int{"TestLoop": 1},
		},
		{
			name: "only blank lines and stray braces",
			src:  blankLines(30) + "}\n)\n]\n" + blankLines(3),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := extract(t, "x_test.go", tt.src)
			if !f.Partial {
				t.Errorf("Partial = false for a fragment")
			}
			if diff := cmp.Diff(tt.want, rows(f)); diff != "" {
				t.Errorf("tests (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantSupp, f.Suppressions); diff != "" {
				t.Errorf("suppressions (-want +got):\n%s", diff)
			}
			for id, n := range tt.wantAsserts {
				if got := len(scantest.ByID(t, f, id).Assertions); got != n {
					t.Errorf("%s has %d assertions, want %d", id, got, n)
				}
			}
		})
	}
}
