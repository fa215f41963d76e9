package sq

import "testing"

func TestSquare(t *testing.T) {
	for _, c := range []struct {
		name    string
		in, out int
	}{
		{"zero", 0, 0},
		{"two", 2, 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Square(c.in); got != c.out {
				t.Fatalf("Square(%d) = %d, want %d", c.in, got, c.out)
			}
		})
	}
}
