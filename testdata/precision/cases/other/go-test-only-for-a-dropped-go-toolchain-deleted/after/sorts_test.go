package sorts

import "testing"

func TestInts(t *testing.T) {
	s := []int{3, 1, 2}
	Ints(s)
	if s[0] != 1 || s[1] != 2 || s[2] != 3 {
		t.Fatalf("Ints = %v", s)
	}
}
