package calc

import "testing"

func TestParseCountsRunes(t *testing.T) {
	if got := Parse("xyz-long-input"); got != 42 {
		t.Errorf("Parse = %d, want 42", got)
	}
	if got := Parse(""); got != 0 {
		t.Errorf("Parse(\"\") = %d, want 0", got)
	}
}
