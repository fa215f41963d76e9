package python

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// ignoreArms leaves Assertion.Arms to TestAssertionArms.
var ignoreArms = cmpopts.IgnoreFields(testscan.Assertion{}, "Arms")

func TestAssertionArms(t *testing.T) {
	src := `import sys

def test_sep():
    got = sep()
    assert got
    if sys.platform == "win32":
        assert got == "\\"
    elif sys.platform == "darwin":
        assert got == ":"
    else:
        assert got == "/"
    for c in cases:
        if c:
            assert c == 1
    try:
        run()
    except OSError:
        assert False
    try:
        assert run() == 1
    except (KeyError, AssertionError):
        pass
    try:
        assert run() == 2
    except Exception as e:
        raise RuntimeError("context") from e
    try:
        assert run() == 3
    except ValueError:
        pass
`
	f, err := New().Extract("test_sep.py", []byte(src))
	if err != nil || len(f.Tests) != 1 {
		t.Fatalf("extract: %v, %+v", err, f)
	}
	var got [][]string
	for _, x := range f.Tests[0].Assertions {
		var arms []string
		for _, a := range x.Arms {
			arms = append(arms, fmt.Sprintf("%s#%d", a.Cond, a.Index))
		}
		got = append(got, arms)
	}
	plat := `if sys . platform == "win32"`
	want := [][]string{
		nil,
		{plat + "#0"}, {plat + "#1"}, {plat + "#2"},
		{"for c in cases#0", "if c#0"},
		{"#0"},
		{"swallowed by except ( KeyError , AssertionError )#0"},
		nil,
		nil,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("arms (-want +got):\n%s", diff)
	}
}
