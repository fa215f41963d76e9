package p

import "path/filepath"

func Join(a, b string) string { return filepath.ToSlash(filepath.Join(a, b)) }
