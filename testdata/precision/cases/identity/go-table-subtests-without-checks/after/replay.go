package replay

func Replay(kind string, st int64) int64 { return st }
