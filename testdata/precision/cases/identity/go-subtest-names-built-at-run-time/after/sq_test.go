package sq

import (
	"fmt"
	"testing"
)

func TestSquare(t *testing.T) {
	for _, c := range []struct {
		name    string
		in, out int
	}{
		{"zero", 0, 0},
		{"two", 2, 4},
	} {
		for _, neg := range []bool{false, true} {
			name, in := c.name, c.in
			if neg {
				name, in = fmt.Sprintf("%s negated", c.name), -c.in
			}
			t.Run(name, func(t *testing.T) {
				if got := Square(in); got != c.out {
					t.Fatalf("Square(%d) = %d, want %d", in, got, c.out)
				}
			})
		}
	}
}
