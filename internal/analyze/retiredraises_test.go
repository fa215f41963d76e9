package analyze

import (
	"strings"
	"testing"
	"unicode"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

func TestRaiseType(t *testing.T) {
	tests := []struct {
		text, typ string
		ok        bool
	}{
		{`raise ValueError("stderr not separately captured")`, "ValueError", true},
		{`raise click.BadParameter(msg) from e`, "BadParameter", true},
		{`raise KeyError`, "KeyError", true},
		{`raise`, "", true},
		{`raise exc`, "", true},
		{`throw new TypeError("joinList expects an array")`, "TypeError", true},
		{`throw err`, "", true},
		{`throw new errors.ParseError(line)`, "ParseError", true},
		{`panic(err)`, "panic", true},
		{`panic!("index out of range: {}", i)`, "panic", true},
		{`return fmt.Errorf("bad")`, "", false},
		{`Err(Error::Parse)`, "", false},
		{`raiseError(x)`, "", false},
	}
	for _, tc := range tests {
		typ, ok := raiseType(testscan.Exit{Kind: testscan.ExitError, Text: tc.text})
		if typ != tc.typ || ok != tc.ok {
			t.Errorf("raiseType(%q) = %q, %v; want %q, %v", tc.text, typ, ok, tc.typ, tc.ok)
		}
	}
}

func TestExpectedFailure(t *testing.T) {
	tests := []struct {
		x    testscan.Assertion
		want string
		ok   bool
	}{
		{testscan.Assertion{Kind: "pytest.raises", Expected: "ValueError"}, "ValueError", true},
		{testscan.Assertion{Kind: "pytest.raises", Expected: `ValueError match="m"`}, "ValueError", true},
		{testscan.Assertion{Kind: "pytest.raises", Expected: "Exception"}, "", true},
		{testscan.Assertion{Kind: "self.assertRaises", Expected: "errors.Invalid,"}, "Invalid", true},
		{testscan.Assertion{Kind: "assertThrows", Expected: "IllegalStateException.class"}, "IllegalStateException", true},
		{testscan.Assertion{Kind: "toThrow", Expected: "TypeError"}, "TypeError", true},
		{testscan.Assertion{Kind: "toThrow", Expected: `"bad input"`}, "", true},
		{testscan.Assertion{Kind: "toThrow"}, "", true},
		{testscan.Assertion{Kind: "assert.Panics"}, "panic", true},
		{testscan.Assertion{Kind: "require.PanicsWithValue", Expected: `"boom"`}, "panic", true},
		{testscan.Assertion{Kind: "assert.Equal", Arms: []testscan.Arm{{Cond: testscan.RecoverArm}}}, "panic", true},
		{testscan.Assertion{Kind: "assert.NotPanics"}, "", false},
		{testscan.Assertion{Kind: "toThrow", Negated: true}, "", false},
		{testscan.Assertion{Kind: "pytest.warns", Expected: "DeprecationWarning"}, "", false},
		{testscan.Assertion{Kind: "pytest.deprecated_call"}, "", false},
		{testscan.Assertion{Kind: "assert.Equal", Arms: []testscan.Arm{{Cond: "func"}}}, "", false},
	}
	for _, tc := range tests {
		got, ok := expectedFailure(tc.x)
		if got != tc.want || ok != tc.ok {
			t.Errorf("expectedFailure(%+v) = %q, %v; want %q, %v", tc.x, got, ok, tc.want, tc.ok)
		}
	}
}

func TestFailureMatches(t *testing.T) {
	tests := []struct {
		want, typ string
		ok        bool
	}{
		{"ValueError", "ValueError", true},
		{"ValueError", "KeyError", false},
		{"ValueError", "", false}, // a value raised again: its class unknown
		{"", "KeyError", true},
		{"", "panic", false}, // pytest.raises(Exception) is no panic check
		{"panic", "panic", true},
		{"panic", "ValueError", false},
	}
	for _, tc := range tests {
		if got := failureMatches(tc.want, tc.typ); got != tc.ok {
			t.Errorf("failureMatches(%q, %q) = %v, want %v", tc.want, tc.typ, got, tc.ok)
		}
	}
}

func FuzzRaiseType(f *testing.F) {
	for _, s := range []string{`raise ValueError("x")`, `throw new a.B$C(1)`, `panic(err)`, `raise`, `throw `, "raise \xff", `panic!`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		typ, ok := raiseType(testscan.Exit{Kind: testscan.ExitError, Text: s})
		if !ok && typ != "" {
			t.Fatalf("raiseType(%q) = %q for no raise", s, typ)
		}
		if typ != "" && typ != "panic" && (!unicode.IsUpper(rune(typ[0])) || strings.ContainsAny(typ, ". (")) {
			t.Fatalf("raiseType(%q) = %q, not a class name", s, typ)
		}
	})
}
