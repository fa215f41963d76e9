package p

import "testing"

func TestParse(t *testing.T) {
	if got := Parse("1"); got != 1 {
		t.Errorf("Parse(1) = %d", got)
	}
	if got := Parse("42"); got != 42 {
		t.Errorf("Parse(42) = %d", got)
	}
	if got := Parse("-7"); got != -7 {
		t.Errorf("Parse(-7) = %d", got)
	}
}
