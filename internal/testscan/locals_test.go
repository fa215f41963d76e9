package testscan

import "testing"

// TestThroughLocals: a side that is a local set once, before the check, to
// a call of the function the other side calls becomes that call; a local
// set twice, after the check, or to another function's result stays.
func TestThroughLocals(t *testing.T) {
	locals := map[string]*Local{
		"expected": {Value: `parse("x")`, Line: 1, Count: 1},
		"twice":    {Value: `parse("x")`, Line: 1, Count: 2},
		"later":    {Value: `parse("x")`, Line: 9, Count: 1},
		"oracle":   {Value: `reference("x")`, Line: 1, Count: 1},
	}
	as := []Assertion{
		{Line: 5, Subject: `parse("x")`, Expected: "expected"},
		{Line: 5, Subject: "expected", Expected: `parse("x")`},
		{Line: 5, Subject: `parse("x")`, Expected: "twice"},
		{Line: 5, Subject: `parse("x")`, Expected: "later"},
		{Line: 5, Subject: `parse("x")`, Expected: "oracle"},
	}
	ThroughLocals(as, locals)
	want := [][2]string{
		{`parse("x")`, `parse("x")`},
		{`parse("x")`, `parse("x")`},
		{`parse("x")`, "twice"},
		{`parse("x")`, "later"},
		{`parse("x")`, "oracle"},
	}
	for i, a := range as {
		if got := [2]string{a.Subject, a.Expected}; got != want[i] {
			t.Errorf("check %d: %q, want %q", i, got, want[i])
		}
	}
}
