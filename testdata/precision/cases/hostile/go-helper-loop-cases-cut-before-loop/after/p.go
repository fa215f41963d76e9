package p

import "strconv"

func Parse(s string) int { n, _ := strconv.Atoi(s); return n }
