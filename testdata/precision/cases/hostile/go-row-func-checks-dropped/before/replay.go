package replay

// Replay returns the samples a series kept across a replay.
func Replay(kind string, in []int64) []int64 { return append([]int64(nil), in...) }
