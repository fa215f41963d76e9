package golang

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// ignoreFlow leaves Assertion.Origin to TestValuesPassed and
// Assertion.Arms to TestAssertionArms.
var ignoreFlow = cmpopts.IgnoreFields(testscan.Assertion{}, "Origin", "Arms")

func TestValuesPassed(t *testing.T) {
	src := `package p

import "testing"

func assertNoErr(t *testing.T, e error) {
	if e != nil {
		t.Error(e)
	}
}

func TestX(t *testing.T) {
	if err := c.Create(); err != nil {
		t.Fatal(err)
	}
	v, err := open("x")
	if err != nil {
		t.Fatal(err)
	}
	err = v.Close()
	assertNoErr(t, err)
	assertNoErr(t, c.Create())
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}
`
	f := extract(t, "p_test.go", src)
	var origins []string
	for _, x := range f.Tests[0].Assertions {
		origins = append(origins, x.Origin)
	}
	if diff := cmp.Diff([]string{"c.Create()", `open("x")#1`, ""}, origins); diff != "" {
		t.Errorf("test origins (-want +got):\n%s", diff)
	}
	if h := f.HelperAssertions; len(h) != 1 || h[0].Origin != "$1" {
		t.Errorf("helper assertions %+v, want one on $1", h)
	}
	var values [][]string
	for _, c := range f.Tests[0].Calls {
		if c.Name == "assertNoErr" {
			values = c.Values
		}
	}
	if diff := cmp.Diff([][]string{{"t", "v.Close()"}, {"t", "c.Create()"}}, values); diff != "" {
		t.Errorf("values passed to assertNoErr (-want +got):\n%s", diff)
	}
}

func TestAssertionArms(t *testing.T) {
	src := `package p

import "testing"

func TestX(t *testing.T) {
	if got != want {
		t.Errorf("got %v", got)
	}
	if runtime.GOOS == "windows" {
		if got != wantWin {
			t.Errorf("got %v", got)
		}
	} else if fast {
		assert.Equal(t, want, got)
	} else {
		assert.Equal(t, wantSlow, got)
	}
	for _, c := range cases {
		switch c {
		case 1:
			assert.Equal(t, 1, c)
			fallthrough
		case 2:
			assert.Equal(t, 2, c)
		default:
			assert.Equal(t, 3, c)
		}
	}
}
`
	f := extract(t, "p_test.go", src)
	var got [][]string
	for _, x := range f.Tests[0].Assertions {
		var arms []string
		for _, a := range x.Arms {
			arms = append(arms, fmt.Sprintf("%s#%d", a.Cond, a.Index))
		}
		got = append(got, arms)
	}
	win := `if runtime.GOOS == "windows"`
	want := [][]string{
		nil,
		{win + "#0"},
		{win + "#1", "if fast#0"},
		{win + "#1", "if fast#1"},
		{"range cases#0", "switch c#0"},
		{"range cases#0", "switch c#0"},
		{"range cases#0", "switch c#1"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("arms (-want +got):\n%s", diff)
	}
}

// TestExpectedThroughLocal: an expected value bound to a call of the
// function the checked value came from is that call (a circular
// expectation); one bound to another function, or the subject itself,
// keeps its name.
func TestExpectedThroughLocal(t *testing.T) {
	src := `package p

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestX(t *testing.T) {
	want := Parse("x")
	if got := Parse("x"); got != want {
		t.Errorf("got %d", got)
	}
	ref := Reference("x")
	got := Parse("x")
	require.Equal(t, ref, got)
	err := Open("x")
	require.ErrorIs(t, err, err)
}
`
	f := extract(t, "p_test.go", src)
	var expected []string
	for _, x := range f.Tests[0].Assertions {
		expected = append(expected, x.Expected)
	}
	if diff := cmp.Diff([]string{`Parse("x")`, "ref", "err"}, expected); diff != "" {
		t.Errorf("expected values (-want +got):\n%s", diff)
	}
}
