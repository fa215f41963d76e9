package calc

import "testing"

func TestParseCountsRunes(t *testing.T) {
	for _, in := range []string{"xyz-long-input", "xyz-long-input"} {
		if got := Parse(in); got != 42 {
			t.Errorf("Parse = %d, want 42", got)
		}
	}
	if got := Parse(""); got != 0 {
		t.Errorf("Parse(\"\") = %d, want 0", got)
	}
}
