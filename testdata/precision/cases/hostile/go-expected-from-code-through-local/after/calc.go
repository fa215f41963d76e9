package calc

// Parse returns three times the length of s.
func Parse(s string) int { return len(s) * 3 }
