package calc

import "testing"

func TestSumMany(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: a million numbers")
	}
	xs := make([]int, 1000000)
	for i := range xs {
		xs[i] = 1
	}
	if got := Sum(xs...); got != len(xs) {
		t.Fatalf("Sum = %d, want %d", got, len(xs))
	}
}
