package b

import "strings"

// WithoutVariables drops name from env.
func WithoutVariables(env []string, name string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return out
}
