package m

import "strconv"

func Parse(s string) (int, error) { return strconv.Atoi(s) }

func Other(s string) (int, error) { return len(s), nil }
