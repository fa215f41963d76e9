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

// TestDetachedGoroutine: a check in a goroutine that nothing after it
// waits for (a receive, a select, a range over what it sends, Wait, Sleep,
// Eventually, or a wait deferred or registered with t.Cleanup anywhere)
// gets a Detached arm, and a helper it starts there is a Detached call,
// not a call.
func TestDetachedGoroutine(t *testing.T) {
	for _, c := range []struct {
		name, body string
		detached   bool
	}{
		{"nothing after", "go func() {\n\t\tassert.Equal(t, 1, f())\n\t}()", true},
		{"receive before it", "<-ready\n\tgo func() {\n\t\tassert.Equal(t, 1, f())\n\t}()", true},
		{"in a loop, nothing after", "for _, c := range cases {\n\t\tgo func() {\n\t\t\tassert.Equal(t, 1, f(c))\n\t\t}()\n\t}", true},
		{"wait group", "var wg sync.WaitGroup\n\twg.Add(1)\n\tgo func() {\n\t\tdefer wg.Done()\n\t\tassert.Equal(t, 1, f())\n\t}()\n\twg.Wait()", false},
		{"receive", "go func() {\n\t\tassert.Equal(t, 1, f())\n\t\tclose(done)\n\t}()\n\t<-done", false},
		{"select", "go func() {\n\t\tassert.Equal(t, 1, f())\n\t}()\n\tselect {\n\tcase <-done:\n\t}", false},
		{"range over its results", "go func() {\n\t\tassert.Equal(t, 1, f())\n\t\tout <- 1\n\t}()\n\tfor v := range out {\n\t\t_ = v\n\t}", false},
		{"deferred wait", "defer wg.Wait()\n\tgo func() {\n\t\tassert.Equal(t, 1, f())\n\t}()", false},
		{"cleanup wait", "t.Cleanup(wg.Wait)\n\tgo func() {\n\t\tassert.Equal(t, 1, f())\n\t}()", false},
		{"eventually", "go func() {\n\t\tassert.Equal(t, 1, f())\n\t}()\n\trequire.Eventually(t, ready, time.Second, time.Millisecond)", false},
		{"sleep", "go func() {\n\t\tassert.Equal(t, 1, f())\n\t}()\n\ttime.Sleep(time.Second)", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := "package p\n\nimport (\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/assert\"\n)\n\nfunc TestX(t *testing.T) {\n\t" + c.body + "\n}\n"
			f := extract(t, "p_test.go", src)
			if len(f.Tests) != 1 || len(f.Tests[0].Assertions) == 0 {
				t.Fatalf("tests = %+v", f.Tests)
			}
			got := false
			for _, a := range f.Tests[0].Assertions[0].Arms {
				if testscan.IsDetached(a.Cond) {
					got = true
					if a.Cond != testscan.Detached+"go func() {...}()" {
						t.Errorf("arm = %q", a.Cond)
					}
				}
			}
			if got != c.detached {
				t.Errorf("detached = %v, want %v (arms %+v)", got, c.detached, f.Tests[0].Assertions[0].Arms)
			}
		})
	}

	src := `package p

import "testing"

func TestX(t *testing.T) {
	setup(t)
	go checkAll(t, "x")
	go func() {
		checkOne(t)
	}()
	checkOne(t)
}
`
	f := extract(t, "p_test.go", src)
	var calls []string
	for _, c := range f.Tests[0].Calls {
		calls = append(calls, c.Name)
	}
	if diff := cmp.Diff([]string{"setup", "checkOne"}, calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"checkAll"}, f.Tests[0].Detached); diff != "" {
		t.Errorf("detached calls (-want +got):\n%s", diff)
	}
}

// TestConstantConditions: an if on a name bound once to a literal (in the
// test or at the file's top) is spelled as that literal, for
// testscan.NeverHolds; a name bound twice, changed, or a parameter or range
// variable is left as written.
func TestConstantConditions(t *testing.T) {
	for _, c := range []struct{ decl, cond, want string }{
		{"const slow = false", "slow", "if false /* slow */"},
		{"check := false", "!check", "if !false /* check */"},
		{"var level = 0", "level", "if 0 /* level */"},
		{"slow := false\n\tslow = true", "slow", "if slow"},
		{"slow := false\n\tslow++", "slow", "if slow"},
		{"slow := f()", "slow", "if slow"},
		{"for _, slow := range []bool{false} {\n\t\t_ = slow\n\t}", "slow", "if slow"},
		{"", "fileConst", "if false /* fileConst */"},
	} {
		src := "package p\n\nimport \"testing\"\n\nconst fileConst = false\n\nfunc TestX(t *testing.T) {\n\t" + c.decl + "\n\tif " + c.cond + " {\n\t\tif got := f(); got != 1 {\n\t\t\tt.Errorf(\"x\")\n\t\t}\n\t}\n}\n"
		f := extract(t, "p_test.go", src)
		if len(f.Tests) != 1 || len(f.Tests[0].Assertions) != 1 {
			t.Fatalf("%s: tests = %+v", c.decl, f.Tests)
		}
		var got string
		for _, a := range f.Tests[0].Assertions[0].Arms {
			got = a.Cond
		}
		if c.want == "if "+c.cond {
			if got != "" && got != c.want {
				t.Errorf("%q / if %s: arm %q, want none or %q", c.decl, c.cond, got, c.want)
			}
			continue
		}
		if got != c.want {
			t.Errorf("%q / if %s: arm %q, want %q", c.decl, c.cond, got, c.want)
		}
	}
}

// TestHelperSkip: a test that calls, at its top level, a function of the
// file that skips the test it is handed is skipped there; conditionally
// when the helper's skip is under an if (an environment read marks it).
func TestHelperSkip(t *testing.T) {
	for _, c := range []struct {
		helper string
		kind   testscan.SkipKind
		env    bool
	}{
		{"func skipSlow(t *testing.T) {\n\tt.Helper()\n\tt.Skip(\"slow\")\n}", testscan.SkipCall, false},
		{"func skipSlow(tb testing.TB) {\n\tif os.Getenv(\"CI\") != \"\" {\n\t\ttb.Skip(\"ci\")\n\t}\n}", testscan.SkipConditional, true},
		{"func skipSlow(t *testing.T) {\n\tif runtime.GOOS == \"windows\" {\n\t\tt.Skip()\n\t}\n}", testscan.SkipConditional, false},
		{"func skipSlow(t *testing.T) {\n\tt.Log(\"fine\")\n}", "", false},
		{"func skipSlow(t *testing.T) {\n\treturn\n\tt.Skip()\n}", "", false},
	} {
		src := "package p\n\nimport \"testing\"\n\n" + c.helper + "\n\nfunc TestX(t *testing.T) {\n\tskipSlow(t)\n\tif got := f(); got != 1 {\n\t\tt.Errorf(\"x\")\n\t}\n}\n"
		f := extract(t, "p_test.go", src)
		var tc *testscan.TestCase
		for i := range f.Tests {
			if f.Tests[i].ID == "TestX" {
				tc = &f.Tests[i]
			}
		}
		if tc == nil {
			t.Fatalf("%s: no TestX in %+v", c.helper, f.Tests)
		}
		var kind testscan.SkipKind
		env := false
		if tc.Skip != nil {
			kind, env = tc.Skip.Kind, tc.Skip.EnvGuard
		}
		if kind != c.kind || env != c.env {
			t.Errorf("%q: skip %q env %v, want %q env %v", c.helper, kind, env, c.kind, c.env)
		}
	}
}

// TestHelperEarlyReturnIsNoSkip: a helper's conditional return skips
// nothing of the test that calls it.
func TestHelperEarlyReturnIsNoSkip(t *testing.T) {
	src := "package p\n\nimport \"testing\"\n\nfunc check(t *testing.T, s string) {\n\tif s == \"\" {\n\t\treturn\n\t}\n\tt.Log(s)\n}\n\nfunc TestX(t *testing.T) {\n\tcheck(t, \"x\")\n\tif got := f(); got != 1 {\n\t\tt.Errorf(\"x\")\n\t}\n}\n"
	f := extract(t, "p_test.go", src)
	for _, tc := range f.Tests {
		if tc.Skip != nil {
			t.Errorf("%s: skip %+v", tc.ID, tc.Skip)
		}
	}
}
