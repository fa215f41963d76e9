package m

import "testing"

func TestParse(t *testing.T) {
	_ = Parse("5")
	if v := Version(); v != 1 {
		t.Fatalf("version %d", v)
	}
}
