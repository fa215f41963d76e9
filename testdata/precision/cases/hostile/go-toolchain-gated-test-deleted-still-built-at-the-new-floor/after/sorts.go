package sorts

import "slices"

// Ints sorts s in place.
func Ints(s []int) {
	slices.Sort(s)
}
