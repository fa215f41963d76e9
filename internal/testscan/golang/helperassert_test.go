package golang

import "testing"

func TestHelperAssertions(t *testing.T) {
	src := `package calc

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func checkAdd(t *testing.T, a, b, want int) {
	t.Helper()
	if got := Add(a, b); got != want {
		t.Errorf("Add(%d, %d) = %d, want %d", a, b, got, want)
	}
}

func mustParse(tb testing.TB, s string) int {
	n, err := Parse(s)
	require.NoError(tb, err)
	return n
}

func TestAdd(t *testing.T) {
	checkAdd(t, 2, 3, 5)
	if mustParse(t, "4") != 4 {
		t.Fatal("parse")
	}
}

func helperWithoutT(s string) bool { return s == "x" }
`
	f := extract(t, "calc_test.go", src)
	if len(f.Tests) != 1 || len(f.Tests[0].Assertions) != 1 {
		t.Fatalf("tests = %+v", f.Tests)
	}
	var kinds []string
	for _, a := range f.HelperAssertions {
		kinds = append(kinds, a.Kind)
	}
	if len(kinds) != 2 || kinds[0] != "t.Errorf" || kinds[1] != "require.NoError" {
		t.Errorf("helper assertions = %v, want [t.Errorf require.NoError]", kinds)
	}
	if f := extract(t, "calc.go", src); len(f.HelperAssertions) != 0 {
		t.Errorf("production file has helper assertions: %+v", f.HelperAssertions)
	}
}
