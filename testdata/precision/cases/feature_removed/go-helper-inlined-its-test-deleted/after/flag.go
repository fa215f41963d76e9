package cli

import (
	"fmt"
	"os"
	"strings"
)

// Lookup returns the flag's value from the first environment variable or
// file that has one, and where it was found.
func Lookup(envVars []string, filePaths []string) (string, string) {
	for _, envVar := range envVars {
		envVar = strings.TrimSpace(envVar)
		if value, found := os.LookupEnv(envVar); found {
			return value, fmt.Sprintf("environment variable %q", envVar)
		}
	}
	for _, fileVar := range filePaths {
		if fileVar != "" {
			if data, err := os.ReadFile(fileVar); err == nil {
				return string(data), fmt.Sprintf("file %q", filePaths)
			}
		}
	}
	return "", ""
}

// splitValues splits a flag's value on commas.
func splitValues(val string) []string {
	return strings.Split(val, ",")
}
