//go:build !go1.21

package sorts

import "sort"

func sortInts(s []int) { sort.Ints(s) }
