package p

import "testing"

func TestParse(t *testing.T) {
	got := Parse("a,b")
	if len(got) != 2 || got[0] != "a" {
		t.Errorf("Parse = %v", got)
	}
}
