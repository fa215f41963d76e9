package p

import "testing"

func TestJoin(t *testing.T) {
	got := Join("a", "b")
	if got != "a/b" {
		t.Errorf("Join = %q", got)
	}
}
