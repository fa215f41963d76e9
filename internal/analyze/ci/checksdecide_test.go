package ci

import "testing"

func TestChecksDecide(t *testing.T) {
	for _, c := range []struct {
		src  string
		want bool
	}{
		{"(rm -rf dist || true) && vitest run", true},
		{"vitest run", true},
		{"vitest run || true", false},
		{"rm -rf dist && (vitest run || true)", false},
		{"rm -rf dist || true", false}, // runs no check
		{"jest; echo done", false},     // jest's status is lost
		{"if then fi (", false},        // does not parse
	} {
		if got := checksDecide(c.src); got != c.want {
			t.Errorf("checksDecide(%q) = %v, want %v", c.src, got, c.want)
		}
	}
}
