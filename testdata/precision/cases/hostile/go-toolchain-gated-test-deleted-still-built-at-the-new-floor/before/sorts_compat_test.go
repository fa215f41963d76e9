//go:build !go1.23

package sorts

import "testing"

func TestCompatSortsEmpty(t *testing.T) {
	var s []int
	sortInts(s)
	if len(s) != 0 {
		t.Fatalf("sortInts(nil) = %v", s)
	}
}
