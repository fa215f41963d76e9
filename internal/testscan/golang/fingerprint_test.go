package golang

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scantest"
)

const fpBase = `package calc

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAdd(t *testing.T) {
	tests := []struct {
		name string
		a, b int
		want int
	}{
		{name: "small", a: 1, b: 2, want: 3},
		{name: "negative", a: -1, b: -2, want: -3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Add(tc.a, tc.b); got != tc.want {
				t.Errorf("Add(%d, %d) = %d", tc.a, tc.b, got)
			}
		})
	}
}

func TestMul(t *testing.T) {
	assert.Equal(t, 42, Mul(6, 7)) // the answer
	assert.ElementsMatch(t, []int{1, 2}, Factors(2))
}
`

// fpReformatted is fpBase reformatted by hand: one-line tables, explicit
// semicolons, trailing commas, different comments and line breaks.
const fpReformatted = `package calc

import (
	"testing"
	"github.com/stretchr/testify/assert"
)

// TestAdd adds.
func TestAdd(t *testing.T) {
	tests := []struct{ name string; a, b int; want int }{{name: "small", a: 1, b: 2, want: 3}, {name: "negative", a: -1, b: -2, want: -3}}
	for _, tc := range tests { t.Run(tc.name, func(t *testing.T) { if got := Add(tc.a, tc.b); got != tc.want { t.Errorf("Add(%d, %d) = %d", tc.a, tc.b, got) } }) }
}

func TestMul(t *testing.T) {
	/* checks */ assert.Equal(t,
		42,
		Mul(6, 7),
	)
	assert.ElementsMatch(t, []int{
		1,
		2,
	}, Factors(2))
}
`

func fingerprints(f *testscan.File) map[string]string {
	m := map[string]string{}
	for _, tc := range f.Tests {
		m[tc.ID] = tc.Fingerprint
	}
	return m
}

func TestFingerprintReformatKeepsFacts(t *testing.T) {
	base := extract(t, "calc_test.go", fpBase)
	re := extract(t, "calc_test.go", fpReformatted)
	if diff := cmp.Diff(fingerprints(base), fingerprints(re)); diff != "" {
		t.Errorf("fingerprints changed by a reformat (-base +reformatted):\n%s", diff)
	}
	for _, id := range []string{"TestAdd/small", "TestAdd/negative", "TestMul"} {
		a, b := scantest.ByID(t, base, id), scantest.ByID(t, re, id)
		strip := func(as []testscan.Assertion) []testscan.Assertion {
			out := append([]testscan.Assertion(nil), as...)
			for i := range out {
				out[i].Line = 0
			}
			return out
		}
		if diff := cmp.Diff(strip(a.Assertions), strip(b.Assertions)); diff != "" {
			t.Errorf("%s assertions changed by a reformat (-base +reformatted):\n%s", id, diff)
		}
		if diff := cmp.Diff(a.Literals, b.Literals); diff != "" {
			t.Errorf("%s literals changed by a reformat (-base +reformatted):\n%s", id, diff)
		}
		if a.BodyTokens != b.BodyTokens || a.BodyTokens == 0 {
			t.Errorf("%s BodyTokens = %d and %d, want equal and non-zero", id, a.BodyTokens, b.BodyTokens)
		}
	}
	if got := scantest.ByID(t, base, "TestMul").Assertions[1].Expected; got != "[]int{1, 2}" {
		t.Errorf("ElementsMatch Expected = %q, want %q", got, "[]int{1, 2}")
	}
}

func TestFingerprintRenameMoveAndEdit(t *testing.T) {
	base := fingerprints(extract(t, "calc_test.go", fpBase))
	tests := []struct {
		name   string
		path   string
		src    string
		id     string // the test in src to compare
		baseID string // with this test of fpBase
		same   bool
	}{
		{
			name: "renamed test keeps its fingerprint",
			path: "calc_test.go", src: strings.Replace(fpBase, "func TestMul(", "func TestMultiply(", 1),
			id: "TestMultiply", baseID: "TestMul", same: true,
		},
		{
			name: "renamed table row keeps its fingerprint",
			path: "calc_test.go", src: strings.Replace(fpBase, `"negative"`, `"negatives"`, 1),
			id: "TestAdd/negatives", baseID: "TestAdd/negative", same: true,
		},
		{
			name: "moved to another file, lower down",
			path: "mul_test.go",
			src:  "package calc\n\nimport (\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/assert\"\n)\n\nfunc TestOther(t *testing.T) {}\n" + fpBase[strings.Index(fpBase, "func TestMul("):],
			id:   "TestMul", baseID: "TestMul", same: true,
		},
		{
			name: "one expected literal changed",
			path: "calc_test.go", src: strings.Replace(fpBase, "42, Mul", "43, Mul", 1),
			id: "TestMul", baseID: "TestMul",
		},
		{
			name: "one row value changed",
			path: "calc_test.go", src: strings.Replace(fpBase, "want: -3", "want: -4", 1),
			id: "TestAdd/negative", baseID: "TestAdd/negative",
		},
		{
			name: "loop body changed changes every row",
			path: "calc_test.go", src: strings.Replace(fpBase, "got != tc.want", "got < tc.want", 1),
			id: "TestAdd/small", baseID: "TestAdd/small",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := scantest.ByID(t, extract(t, tt.path, tt.src), tt.id).Fingerprint
			if same := got == base[tt.baseID]; same != tt.same {
				t.Errorf("fingerprint %s = %s, base %s = %s; same = %v, want %v", tt.id, got, tt.baseID, base[tt.baseID], same, tt.same)
			}
		})
	}
}

func TestSubtestNames(t *testing.T) {
	tests := []struct {
		name string
		subs []string
		want []string
	}{
		{name: "spaces and tabs", subs: []string{"a b\tc"}, want: []string{"T/a_b_c"}},
		{name: "unprintable", subs: []string{"x\x00"}, want: []string{`T/x\x00`}},
		{name: "duplicates", subs: []string{"a", "a", "a#01", "a"}, want: []string{"T/a", "T/a#01", "T/a#01#01", "T/a#02"}},
		{name: "empty", subs: []string{"", ""}, want: []string{"T/#00", "T/#01"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n namer
			var got []string
			for _, s := range tt.subs {
				got = append(got, n.unique("T", rewriteName(s)))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("names (-want +got):\n%s", diff)
			}
		})
	}
}
