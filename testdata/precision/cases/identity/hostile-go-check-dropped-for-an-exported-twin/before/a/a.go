package a

import "strings"

// Usage says how.
func Usage() string { return "usage: a" }

func withoutVariables(env []string, name string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return out
}
