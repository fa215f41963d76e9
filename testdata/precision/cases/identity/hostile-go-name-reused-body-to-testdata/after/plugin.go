package plugin

import "strings"

func UseLine(use, display string) string { return strings.Replace(use, "kubectl-plugin", display, 1) }
func Help(use string) string             { return use + " [flags]" }
