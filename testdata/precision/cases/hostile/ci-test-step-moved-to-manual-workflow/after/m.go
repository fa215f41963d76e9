package m

func A() int { return 1 }
