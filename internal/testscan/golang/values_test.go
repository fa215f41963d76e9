package golang

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// ignoreOrigin leaves Assertion.Origin to TestValuesPassed.
var ignoreOrigin = cmpopts.IgnoreFields(testscan.Assertion{}, "Origin")

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
