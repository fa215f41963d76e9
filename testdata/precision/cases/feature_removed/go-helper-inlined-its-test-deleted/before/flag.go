package cli

import (
	"fmt"
	"os"
	"strings"
)

// flagFromEnvOrFile returns the first value found in the environment
// variables or files, where it was found, and whether one was.
func flagFromEnvOrFile(envVars []string, filePaths []string) (value string, fromWhere string, found bool) {
	for _, envVar := range envVars {
		envVar = strings.TrimSpace(envVar)
		if value, found := os.LookupEnv(envVar); found {
			return value, fmt.Sprintf("environment variable %q", envVar), true
		}
	}
	for _, fileVar := range filePaths {
		if fileVar != "" {
			if data, err := os.ReadFile(fileVar); err == nil {
				return string(data), fmt.Sprintf("file %q", filePaths), true
			}
		}
	}
	return "", "", false
}

// Lookup returns the flag's value from the first environment variable or
// file that has one, and where it was found.
func Lookup(envVars []string, filePaths []string) (string, string) {
	value, where, _ := flagFromEnvOrFile(envVars, filePaths)
	return value, where
}

// splitValues splits a flag's value on commas.
func splitValues(val string) []string {
	return strings.Split(val, ",")
}
