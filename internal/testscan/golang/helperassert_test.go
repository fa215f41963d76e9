package golang

import (
	"testing"

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
	scantest.RunHelperAssertions(t, New(), []scantest.HelperCase{
		{
			Name: "helper called by two tests",
			Path: "calc_test.go",
			Src: helperHeader + `
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
			WantHelpers: []testscan.Assertion{
				{Line: 15, Kind: "t.Errorf", Strength: testscan.Strong, Subject: "got", Expected: "want"},
				{Line: 23, Kind: "require.NoError", Strength: testscan.Medium, Subject: "err"},
			},
			WantTests: map[string][]testscan.Assertion{
				"TestAdd":     {{Line: 29, Kind: "t.Errorf", Strength: testscan.Strong, Subject: "got", Expected: "0"}},
				"TestAddMany": {{Line: 38, Kind: "assert.Len", Strength: testscan.Medium, Subject: `mustParse(t, "4")`, Expected: "1"}},
			},
		},
		{
			Name: "subtest in a helper keeps source order",
			Path: "split_test.go",
			Src: helperHeader + `
func checkSplit(t *testing.T, in string, want []string) {
	t.Run(in, func(t *testing.T) {
		if diff := cmp.Diff(want, Split(in)); diff != "" {
			t.Fatalf("Split(%q) mismatch (-want +got):\n%s", in, diff)
		}
	})
	assert.NotEmpty(t, in)
}
`,
			WantHelpers: []testscan.Assertion{
				{Line: 15, Kind: "cmp.Diff", Strength: testscan.Strong, Subject: "Split(in)", Expected: "want"},
				{Line: 19, Kind: "assert.NotEmpty", Strength: testscan.Weak, Negated: true, Subject: "in"},
			},
		},
		{
			Name: "assertion object and quicktest parameters",
			Path: "sum_test.go",
			Src: helperHeader + `
func assertSum(a *assert.Assertions, got int) { a.Equal(10, got) }

func checkQt(c *qt.C, got int) {
	c.Assert(got, qt.Equals, 3)
	if got < 0 {
		c.Fatal("negative")
	}
}
`,
			WantHelpers: []testscan.Assertion{
				{Line: 13, Kind: "assert.Equal", Strength: testscan.Strong, Subject: "got", Expected: "10"},
				{Line: 16, Kind: "qt.Equals", Strength: testscan.Strong, Subject: "got", Expected: "3"},
				{Line: 17, Kind: "t.Fatal", Strength: testscan.Medium, Subject: "got", Expected: "0"},
			},
		},
		{
			Name: "suite setup method",
			Path: "suite_test.go",
			Src: helperHeader + `
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
			WantHelpers: []testscan.Assertion{
				{Line: 20, Kind: "require.NoError", Strength: testscan.Medium, Subject: "err"},
			},
			WantTests: map[string][]testscan.Assertion{
				"CalcSuite.TestMul": {{Line: 24, Kind: "assert.Equal", Strength: testscan.Strong, Subject: "s.calc.Mul(2, 3)", Expected: "6"}},
			},
		},
		{
			Name: "benchmark",
			Path: "bench_test.go",
			Src: helperHeader + `
func BenchmarkAdd(b *testing.B) {
	for b.Loop() {
		if Add(1, 2) != 3 {
			b.Fatal("bad")
		}
	}
}
`,
			WantHelpers: []testscan.Assertion{
				{Line: 15, Kind: "t.Fatal", Strength: testscan.Strong, Subject: "Add(1, 2)", Expected: "3"},
			},
		},
		{
			Name: "functions that cannot assert",
			Path: "fake_test.go",
			Src: helperHeader + `
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
			Name: "support file",
			Path: "testutil/calc.go",
			Src: helperHeader + `
func checkAdd(t *testing.T, a, b, want int) {
	if got := Add(a, b); got != want {
		t.Errorf("got %d", got)
	}
}
`,
			WantHelpers: []a{{Line: 14, Kind: "t.Errorf", Strength: testscan.Strong, Subject: "got", Expected: "want"}},
		},
		{
			Name: "production file",
			Path: "calc.go",
			Src: `package calc

func checkAdd(a, b, want int) bool {
	if got := Add(a, b); got != want {
		panic("got")
	}
	return true
}
`,
		},
	})
}
