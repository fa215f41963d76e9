package rust

import (
	"slices"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

func TestNames(t *testing.T) {
	src := "#[test]\nfn a() {\n    // legacy\n    assert_eq!(old::legacy(\"legacy\"), v.legacy);\n}\n"
	got := testscan.NamesIn(New().Names("t.rs", []byte(src)), 2, 5)
	want := []string{"fn", "a", "assert_eq", "old", "legacy", ".legacy", "v", "legacy", ".legacy"}
	if !slices.Equal(got, want) {
		t.Errorf("Names = %q, want %q", got, want)
	}
}
