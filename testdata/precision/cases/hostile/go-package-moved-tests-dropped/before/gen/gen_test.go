package gen

import (
	"strings"
	"testing"
)

func TestGoldenSkeleton(t *testing.T) {
	got := Project{Name: "demo", License: "mit"}.MainFile()
	if !strings.Contains(got, "demo (MIT)") {
		t.Fatalf("MainFile = %q", got)
	}
}
