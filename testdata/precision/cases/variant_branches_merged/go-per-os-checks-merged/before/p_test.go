package p

import (
	"runtime"
	"testing"
)

func TestJoin(t *testing.T) {
	got := Join("a", "b")
	if runtime.GOOS == "windows" {
		if got != `a\b` {
			t.Errorf("Join = %q", got)
		}
	} else {
		if got != "a/b" {
			t.Errorf("Join = %q", got)
		}
	}
}
