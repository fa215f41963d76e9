package wbl

import "os"

// Segments lists the segment files of dir.
func Segments(dir string) ([]os.DirEntry, error) { return os.ReadDir(dir) }
