package sq

// Square returns n times n.
func Square(n int) int { return n * n }
