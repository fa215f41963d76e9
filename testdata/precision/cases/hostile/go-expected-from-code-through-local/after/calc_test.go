package calc

import "testing"

func TestParseCountsRunes(t *testing.T) {
	want := Parse("xyz-long-input")
	if got := Parse("xyz-long-input"); got != want {
		t.Errorf("Parse = %d, want %d", got, want)
	}
	if got := Parse(""); got != 0 {
		t.Errorf("Parse(\"\") = %d, want 0", got)
	}
}
