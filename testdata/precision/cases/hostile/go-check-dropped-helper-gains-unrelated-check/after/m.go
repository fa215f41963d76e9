package m

import "strconv"

var Mode = "test"

func Parse(s string) int { n, _ := strconv.Atoi(s); return n }
