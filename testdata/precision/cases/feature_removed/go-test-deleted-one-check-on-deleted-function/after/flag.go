package cli

import "strings"

// splitValues splits a flag's value on commas.
func splitValues(val string) []string {
	return strings.Split(val, ",")
}
