package python

import (
	"slices"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

func TestNames(t *testing.T) {
	src := "import x\n\ndef test_a():\n    s = 'parse_legacy_date'  # parse_old\n    assert x.parse_legacy_date(s) == 1\n\ndef test_b():\n    other()\n"
	got := testscan.NamesIn(New().Names("t.py", []byte(src)), 3, 5)
	want := []string{"def", "test_a", "s", "assert", "x", "parse_legacy_date", ".parse_legacy_date", "s"}
	if !slices.Equal(got, want) {
		t.Errorf("Names = %q, want %q", got, want)
	}
}
