package m

func F() int { return 1 }
