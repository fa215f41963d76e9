package testscan

import "testing"

func TestRuntimeGone(t *testing.T) {
	for _, c := range []struct {
		runtime, min string
		want         bool
	}{
		{"<3.7", "3.7", true},
		{"<3.7", "3.6", false},
		{"<3.7", "3.10", true},
		{"<=3.7", "3.7", false},
		{"<=3.7", "3.8", true},
		{"<=23", "24", true},
		{"<=23", "23", false},
		{"<3", "3", true},
		{"<3.7", "3", false},
		{">=3.7", "4", false},
		{"", "4", false},
		{"<3.x", "4", false},
		{"<3.7", "", false},
	} {
		if got := RuntimeGone(c.runtime, c.min); got != c.want {
			t.Errorf("RuntimeGone(%q, %q) = %v, want %v", c.runtime, c.min, got, c.want)
		}
	}
}
