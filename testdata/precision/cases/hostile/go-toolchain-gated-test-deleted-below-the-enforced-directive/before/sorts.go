package sorts

// Ints sorts s in place.
func Ints(s []int) {
	sortInts(s)
}
