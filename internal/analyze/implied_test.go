package analyze

import (
	"fmt"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

func TestUsesValue(t *testing.T) {
	for _, c := range []struct {
		e, v string
		want bool
	}{
		{`b"".join(stream)`, "stream", true},
		{`resp.StatusCode`, "resp", true},
		{`resp.body.len`, "resp.body", true},
		{`resp.status`, "resp.body", false},
		{`"resp is fine"`, "resp", false},
		{`'it\'s resp'`, "resp", false},
		{"`resp`+x", "resp", false},
		{`response`, "resp", false},
	} {
		if got := usesValue(c.e, c.v); got != c.want {
			t.Errorf("usesValue(%q, %q) = %v, want %v", c.e, c.v, got, c.want)
		}
	}
}

func TestImpliedByExact(t *testing.T) {
	notNil := testscan.Assertion{Line: 2, Kind: "require.NotNil", Strength: testscan.Weak, Subject: "resp"}
	exact := testscan.Assertion{Line: 3, Kind: "require.Equal", Strength: testscan.Strong, Subject: "resp.StatusCode", Expected: "200"}
	old := &testscan.TestCase{Assertions: []testscan.Assertion{notNil, exact}}
	if got := impliedByExact([]testscan.Assertion{notNil}, old); len(got) != 0 {
		t.Errorf("NotNil(resp) beside a kept Equal(200, resp.StatusCode) is still counted lost: %v", got)
	}
	if got := impliedByExact([]testscan.Assertion{notNil, exact}, old); len(got) != 2 {
		t.Errorf("NotNil(resp) lost with the exact check that implied it: got %d lost, want 2", len(got))
	}
	guarded := exact
	guarded.Arms = []testscan.Arm{{Cond: "if resp != nil"}}
	old = &testscan.TestCase{Assertions: []testscan.Assertion{notNil, guarded}}
	if got := impliedByExact([]testscan.Assertion{notNil}, old); len(got) != 1 {
		t.Errorf("an exact check under a branch implies nothing: got %d lost, want 1", len(got))
	}
}

func TestCatchAll(t *testing.T) {
	for class, want := range map[string]bool{
		"Exception":                      true,
		"builtins.BaseException":         true,
		"RuntimeException.class":         true,
		"Exception match=\"boom\"":       true,
		"ValueError":                     false,
		"IllegalArgumentException.class": false,
		"KeyError, match=\"x\"":          false,
	} {
		if got := catchAll(class); got != want {
			t.Errorf("catchAll(%q) = %v, want %v", class, got, want)
		}
	}
}

func TestTighterBound(t *testing.T) {
	mk := func(kind, exp string) testscan.Assertion { return testscan.Assertion{Kind: kind, Expected: exp} }
	for _, c := range []struct {
		x, y testscan.Assertion
		want bool
	}{
		{mk("require.Greater", "1"), mk("require.Greater", "2"), true},
		{mk("require.Greater", "1"), mk("require.Greater", "1"), true},
		{mk("require.Greater", "1"), mk("require.Greater", "0"), false},
		{mk("assert.GreaterOrEqual", "3"), mk("assert.GreaterOrEqual", "5"), true},
		{mk("require.Less", "10"), mk("require.Less", "5"), true},
		{mk("require.Less", "10"), mk("require.Less", "20"), false},
		{mk("require.Greater", "1"), mk("require.Less", "2"), false},
		{mk("require.Equal", "1"), mk("require.Equal", "2"), false},
		{mk("require.Greater", "n"), mk("require.Greater", "2"), false},
	} {
		if got := tighterBound(c.x, c.y); got != c.want {
			t.Errorf("tighterBound(%s %s, %s %s) = %v, want %v", c.x.Kind, c.x.Expected, c.y.Kind, c.y.Expected, got, c.want)
		}
	}
}

// The readers of expressions share one walk over string literals.
func TestLiteralReaders(t *testing.T) {
	e := `parse("a\"b(", 'x') + f(` + "`tmpl`" + `, 42, "unclosed`
	if got, want := blankStrings(e), `parse(       ,    ) + f(      , 42,          `; got != want {
		t.Errorf("blankStrings = %q, want %q", got, want)
	}
	if got, want := fmt.Sprint(quotedLiterals(e)), "[\"a\\\"b(\" 'x' `tmpl`]"; got != want {
		t.Errorf("quotedLiterals = %s, want %s", got, want)
	}
	if got, want := fmt.Sprint(rawLiterals(`f("a\"b(c", "abcdef", "xy")`)), `[a\"b(c abcdef]`; got != want {
		t.Errorf("rawLiterals = %s, want %s", got, want)
	}
	if got, want := fmt.Sprint(numberTokens(`f("12", 3.5, x2, -7)`)), "[3.5 7]"; got != want {
		t.Errorf("numberTokens = %s, want %s", got, want)
	}
	if !balancedOnce(`(a + ")")`) || balancedOnce(`(a) + (b)`) {
		t.Error("balancedOnce reads brackets inside strings")
	}
}
