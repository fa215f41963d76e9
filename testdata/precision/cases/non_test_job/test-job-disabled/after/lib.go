package lib

func One() int { return 1 }
