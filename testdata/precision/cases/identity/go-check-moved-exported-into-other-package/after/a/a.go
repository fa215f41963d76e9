package a

// Usage says how.
func Usage() string { return "usage: a" }
