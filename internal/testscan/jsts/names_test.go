package jsts

import (
	"slices"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

func TestNames(t *testing.T) {
	src := "it('a', () => {\n  const s = `oldApi ${v}` // oldApi\n  expect(app?.oldApi(s)).toBe(<b>oldApi</b>)\n})\nfoo()\n"
	got := testscan.NamesIn(New().Names("a.test.jsx", []byte(src)), 1, 4)
	want := []string{"it", "const", "s", "v", "expect", "app", "oldApi", ".oldApi", "s", "toBe", ".toBe", "b", "b"}
	if !slices.Equal(got, want) {
		t.Errorf("Names = %q, want %q", got, want)
	}
}
