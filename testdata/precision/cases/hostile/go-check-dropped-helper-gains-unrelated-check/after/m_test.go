package m

import "testing"

func setup(t *testing.T) {
	t.Helper()
	if Mode != "test" {
		t.Fatalf("mode %s", Mode)
	}
}

func TestParse(t *testing.T) {
	setup(t)
	_ = Parse("5")
}
