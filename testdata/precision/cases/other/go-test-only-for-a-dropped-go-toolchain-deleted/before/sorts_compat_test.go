//go:build !go1.21

package sorts

import "testing"

func TestCompatSortsEmpty(t *testing.T) {
	var s []int
	sortInts(s)
	if len(s) != 0 {
		t.Fatalf("sortInts(nil) = %v", s)
	}
}

func TestCompatSortsOne(t *testing.T) {
	s := []int{7}
	sortInts(s)
	if s[0] != 7 {
		t.Fatalf("sortInts([7]) = %v", s)
	}
}
