//go:build go1.21

package sorts

import "slices"

func sortInts(s []int) { slices.Sort(s) }
