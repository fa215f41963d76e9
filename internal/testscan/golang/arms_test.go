package golang

import (
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// TestRecoverArm: a check in a deferred function literal that calls
// recover() is under a RecoverArm; one in a deferred literal that does not
// recover, or whose recover() sits in a function nested in it (where it
// returns nil), or in a literal called at once, is under a plain func arm.
func TestRecoverArm(t *testing.T) {
	src := `package p

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRecovers(t *testing.T) {
	defer func() {
		r := recover()
		assert.Equal(t, "boom", fmt.Sprint(r))
	}()
	Render()
}

func TestDeferredNoRecover(t *testing.T) {
	defer func() {
		assert.Equal(t, 1, count())
	}()
	Render()
}

func TestNestedRecover(t *testing.T) {
	defer func() {
		f := func() any { return recover() }
		assert.Nil(t, f())
	}()
	Render()
}

func TestCalledAtOnce(t *testing.T) {
	func() {
		r := recover()
		assert.Nil(t, r)
	}()
}
`
	f, err := New().Extract("p/p_test.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"TestRecovers":          testscan.RecoverArm,
		"TestDeferredNoRecover": "func",
		"TestNestedRecover":     "func",
		"TestCalledAtOnce":      "func",
	}
	for _, tc := range f.Tests {
		if len(tc.Assertions) != 1 || len(tc.Assertions[0].Arms) != 1 {
			t.Errorf("%s: assertions %+v, want one under one arm", tc.Name, tc.Assertions)
			continue
		}
		if got := tc.Assertions[0].Arms[0].Cond; got != want[tc.Name] {
			t.Errorf("%s: arm %q, want %q", tc.Name, got, want[tc.Name])
		}
		delete(want, tc.Name)
	}
	if len(want) != 0 {
		t.Errorf("tests not read: %v", want)
	}
}
