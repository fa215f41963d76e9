package m

import "testing"

func TestParseMany(t *testing.T) {
	if Parse("5") == 0 {
		t.Fatal("zero")
	}
	if got := Parse("55"); got != 55 {
		t.Fatalf("got %d", got)
	}
}

func TestParseFive(t *testing.T) {
	if got := Parse("5"); got != 5 {
		t.Fatalf("got %d", got)
	}
}
