package m

import "testing"

func setup(t *testing.T) {
	t.Helper()
}

func TestParse(t *testing.T) {
	setup(t)
	if got := Parse("5"); got != 5 {
		t.Fatalf("got %d", got)
	}
}
