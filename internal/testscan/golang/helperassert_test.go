package golang

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scantest"
)

// helperHeader is the first 11 lines of every source in TestHelperAssertions.
const helperHeader = `package calc

import (
	"testing"

	qt "github.com/frankban/quicktest"
	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/stretchr/testify/suite"
)
`

func TestHelperAssertions(t *testing.T) {
	type a = testscan.Assertion
	for _, tc := range []struct {
		name      string
		path      string
		src       string
		want      []testscan.Assertion
		wantTests map[string][]testscan.Assertion
	}{
		{
			name: "helper called by two tests",
			path: "calc_test.go",
			src: helperHeader + `
func checkAdd(t *testing.T, a, b, want int) {
	t.Helper()
	if got := Add(a, b); got != want {
		t.Errorf("Add(%d, %d) = %d, want %d", a, b, got, want)
	}
}

func mustParse(tb testing.TB, s string) []int {
	tb.Helper()
	v, err := Parse(s)
	require.NoError(tb, err)
	return v
}

func TestAdd(t *testing.T) {
	checkAdd(t, 2, 3, 5)
	if got := Add(-1, 1); got != 0 {
		t.Errorf("Add(-1, 1) = %d, want 0", got)
	}
}

func TestAddMany(t *testing.T) {
	for _, n := range mustParse(t, "1 2 3") {
		checkAdd(t, n, 0, n)
	}
	assert.Len(t, mustParse(t, "4"), 1)
}
`,
			want: []testscan.Assertion{
				{Line: 15, Kind: "t.Errorf", Strength: testscan.Strong, Subject: "got", Expected: "want"},
				{Line: 23, Kind: "require.NoError", Strength: testscan.Medium, Subject: "err"},
			},
			wantTests: map[string][]testscan.Assertion{
				"TestAdd":     {{Line: 29, Kind: "t.Errorf", Strength: testscan.Strong, Subject: "got", Expected: "0"}},
				"TestAddMany": {{Line: 38, Kind: "assert.Len", Strength: testscan.Medium, Subject: `mustParse(t, "4")`, Expected: "1"}},
			},
		},
		{
			name: "subtest in a helper keeps source order",
			path: "split_test.go",
			src: helperHeader + `
func checkSplit(t *testing.T, in string, want []string) {
	t.Run(in, func(t *testing.T) {
		if diff := cmp.Diff(want, Split(in)); diff != "" {
			t.Fatalf("Split(%q) mismatch (-want +got):\n%s", in, diff)
		}
	})
	assert.NotEmpty(t, in)
}
`,
			want: []testscan.Assertion{
				{Line: 15, Kind: "cmp.Diff", Strength: testscan.Strong, Subject: "Split(in)", Expected: "want"},
				{Line: 19, Kind: "assert.NotEmpty", Strength: testscan.Weak, Negated: true, Subject: "in"},
			},
		},
		{
			name: "assertion object and quicktest parameters",
			path: "sum_test.go",
			src: helperHeader + `
func assertSum(a *assert.Assertions, got int) { a.Equal(10, got) }

func checkQt(c *qt.C, got int) {
	c.Assert(got, qt.Equals, 3)
	if got < 0 {
		c.Fatal("negative")
	}
}
`,
			want: []testscan.Assertion{
				{Line: 13, Kind: "assert.Equal", Strength: testscan.Strong, Subject: "got", Expected: "10"},
				{Line: 16, Kind: "qt.Equals", Strength: testscan.Strong, Subject: "got", Expected: "3"},
				{Line: 17, Kind: "t.Fatal", Strength: testscan.Medium, Subject: "got", Expected: "0"},
			},
		},
		{
			name: "suite setup method",
			path: "suite_test.go",
			src: helperHeader + `
type CalcSuite struct {
	suite.Suite
	calc *Calc
}

func (s *CalcSuite) SetupTest() {
	c, err := NewCalc()
	s.Require().NoError(err)
	s.calc = c
}

func (s *CalcSuite) TestMul() { s.Equal(6, s.calc.Mul(2, 3)) }
`,
			want: []testscan.Assertion{
				{Line: 20, Kind: "require.NoError", Strength: testscan.Medium, Subject: "err"},
			},
			wantTests: map[string][]testscan.Assertion{
				"CalcSuite.TestMul": {{Line: 24, Kind: "assert.Equal", Strength: testscan.Strong, Subject: "s.calc.Mul(2, 3)", Expected: "6"}},
			},
		},
		{
			name: "benchmark",
			path: "bench_test.go",
			src: helperHeader + `
func BenchmarkAdd(b *testing.B) {
	for b.Loop() {
		if Add(1, 2) != 3 {
			b.Fatal("bad")
		}
	}
}
`,
			want: []testscan.Assertion{
				{Line: 15, Kind: "t.Fatal", Strength: testscan.Strong, Subject: "Add(1, 2)", Expected: "3"},
			},
		},
		{
			name: "functions that cannot assert",
			path: "fake_test.go",
			src: helperHeader + `
type fake struct{}

func (f *fake) Equal(a, b int) bool { return a == b }
func (f *fake) check()              { f.Equal(1, 2) }

func sameLen(a, b []int) bool { return len(a) == len(b) }

func TestMain(m *testing.M) { m.Run() }
`,
		},
		{
			// A non-test file that imports "testing" is a test support
			// package (testutil): its assertion helpers are read.
			name: "support file",
			path: "testutil/calc.go",
			src: helperHeader + `
func checkAdd(t *testing.T, a, b, want int) {
	if got := Add(a, b); got != want {
		t.Errorf("got %d", got)
	}
}
`,
			want: []a{{Line: 14, Kind: "t.Errorf", Strength: testscan.Strong, Subject: "got", Expected: "want"}},
		},
		{
			name: "production file",
			path: "calc.go",
			src: `package calc

func checkAdd(a, b, want int) bool {
	if got := Add(a, b); got != want {
		panic("got")
	}
	return true
}
`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := extract(t, tc.path, tc.src)
			if diff := cmp.Diff(tc.want, f.HelperAssertions, scantest.IgnoreHelperName, ignoreFlow); diff != "" {
				t.Errorf("HelperAssertions (-want +got):\n%s", diff)
			}
			got := map[string][]a{}
			for _, test := range f.Tests {
				got[test.ID] = test.Assertions
			}
			if len(tc.wantTests) == 0 {
				tc.wantTests = map[string][]a{}
			}
			if diff := cmp.Diff(tc.wantTests, got, ignoreFlow); diff != "" {
				t.Errorf("test assertions (-want +got):\n%s", diff)
			}
		})
	}
}
