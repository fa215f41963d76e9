package java

import (
	"slices"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

func TestNames(t *testing.T) {
	src := "class T {\n  @Test void a() {\n    /* legacy */ assertEquals(1, Old.legacy(\"legacy\"));\n  }\n}\n"
	got := testscan.NamesIn(New().Names("T.java", []byte(src)), 2, 4)
	want := []string{"Test", "void", "a", "assertEquals", "Old", "legacy", ".legacy"}
	if !slices.Equal(got, want) {
		t.Errorf("Names = %q, want %q", got, want)
	}
}
