package calc

import (
	"strings"
	"testing"
)

type addCase struct {
	name string
	a, b int
	want int
}

var addCases = []addCase{
	{name: "zero", a: 0, b: 0, want: 0},
	{name: "positive", a: 2, b: 3, want: 5},
	{name: "negative", a: -2, b: -3, want: -5},
}

const epsilon = 1e-9

var parseCases = []struct {
	in   string
	want []string
}{
	{"a,b", []string{"a", "b"}},
	{"", nil},
}

func TestAdd(t *testing.T) {
	for _, tc := range addCases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Add(tc.a, tc.b); got != tc.want {
				t.Errorf("Add(%d, %d) = %d, want %d", tc.a, tc.b, got, tc.want)
			}
		})
	}
}

func TestParse(t *testing.T) {
	for _, tc := range parseCases {
		t.Run(tc.in, func(t *testing.T) {
			got := strings.Split(tc.in, ",")
			checkStrings(t, got, tc.want)
		})
	}
}

func TestEpsilon(t *testing.T) {
	if epsilon <= 0 {
		t.Fatal("epsilon must be positive")
	}
}

func checkStrings(t *testing.T, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d strings, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("string %d = %q, want %q", i, got[i], want[i])
		}
	}
}

type suite struct{ t *testing.T }

func (s suite) TestSuiteCase() {
	if Add(1, 1) != 2 {
		s.t.Fatal("1+1")
	}
}

// checker is a helper type whose method asserts: a test that calls it reads
// the method, which masking keeps whenever it changes.
type checker struct{ want int }

func (c checker) check(t *testing.T, got int) {
	t.Helper()
	if got != c.want {
		t.Fatalf("got %d, want %d", got, c.want)
	}
}

func TestUsesChecker(t *testing.T) {
	checker{want: 2}.check(t, Add(1, 1))
	c := checker{want: 4}
	c.check(t, Add(2, 2))
}
