package m

import (
	"runtime"
	"testing"
)

func TestAdd(t *testing.T) {
	if runtime.GOOS == "linux" {
		t.Skip("flaky on linux")
	}
	if Add(2, 2) != 4 {
		t.Fatal("2+2")
	}
}
