package m

import "testing"

func TestParse(t *testing.T) {
	if got := Parse("5"); got != 5 {
		t.Fatalf("got %d", got)
	}
}
