package m

import "strconv"

func Version() int { return 1 }

func Parse(s string) int { n, _ := strconv.Atoi(s); return n }
