package m

import "testing"

func TestParseAll(t *testing.T) {
	if Parse("5") == 0 {
		t.Fatal("zero")
	}
	if got := Parse("55"); got != 55 {
		t.Fatalf("got %d", got)
	}
}
