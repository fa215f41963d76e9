package calctest

import "testing"

type golden struct {
	in, out string
}

var goldens = []golden{
	{"a", "A"},
	{"b", "B"},
}

// CheckGoldens runs every golden case through f.
func CheckGoldens(t *testing.T, f func(string) string) {
	t.Helper()
	for _, g := range goldens {
		if got := f(g.in); got != g.out {
			t.Errorf("f(%q) = %q, want %q", g.in, got, g.out)
		}
	}
}

// MustEqual fails the test when a and b differ.
func MustEqual(t *testing.T, a, b int) {
	t.Helper()
	if a != b {
		t.Fatalf("%d != %d", a, b)
	}
}

// RunGoldens runs each golden case as a subtest.
func RunGoldens(t *testing.T, f func(string) string) {
	for _, g := range goldens {
		t.Run(g.in, func(t *testing.T) {
			MustEqual(t, len(f(g.in)), len(g.out))
		})
	}
}

// TestGoldensInSupport is a test in a file go test does not compile as one.
func TestGoldensInSupport(t *testing.T) {
	for _, g := range goldens {
		t.Run(g.in, func(t *testing.T) {
			if g.out == "" {
				t.Fatal("empty")
			}
		})
	}
}
