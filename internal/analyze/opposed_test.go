package analyze

import (
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

func TestOpposed(t *testing.T) {
	tests := []struct {
		x, y string
		want bool
	}{
		{"leaked<=64", "leaked>opened/2", true},
		{"leaked<=64", "leaked<=max_leaked_fd", false},
		{"leaked<=64", "64<leaked", true},
		{"leaked<=64", "max>=leaked", false},
		{"n>0", "n>=1", false},
		{"n>0", "n<1", true},
		{"leaked<=64", "count>=before", false},
		{"leaked<=64", "leaked>1&&ok", false},
		{"f(a<b)", "f(a>b)", false},
		{"x.len()", "x.len()>0", false},
		{"v->x<1", "v->x>1", true},
		{"a<<2", "a>>2", false},
		{"Vec::<u8>::new().len()<1", "Vec::<u8>::new().len()>1", true},
	}
	for _, tc := range tests {
		if got := opposed(tc.x, tc.y); got != tc.want {
			t.Errorf("opposed(%q, %q) = %v, want %v", tc.x, tc.y, got, tc.want)
		}
	}
}

func TestRepeatFor(t *testing.T) {
	x := testscan.Assertion{Kind: "assertFalse", Strength: testscan.Medium, Subject: "sb1.equals(sb2)"}
	repeats := []testscan.Assertion{
		{Kind: "t.Errorf", Strength: testscan.Medium, Subject: "err"},
		{Kind: "assertNotEquals", Strength: testscan.Medium, Subject: "sb2", Expected: "sb1"},
	}
	if got := repeatFor(x, repeats); got != 1 {
		t.Errorf("repeatFor(%v) = %d, want 1 (the check of the same values)", x, got)
	}
	other := testscan.Assertion{Kind: "t.Errorf", Strength: testscan.Strong, Subject: "got", Expected: `"1.0"`}
	if got := repeatFor(other, repeats); got != -1 {
		t.Errorf("repeatFor(%v) = %d, want -1 (no repeat is about its values)", other, got)
	}
}
