package m

func Add(a, b int) int { return a + b }
