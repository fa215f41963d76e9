package n

func F() int { return 1 }
