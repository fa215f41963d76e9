//go:build !linux

package main

import "os"

// scrubSelf: re-executing without credentials needs Linux's memory files;
// elsewhere the collectors' environment is still scrubbed (collect.ScrubEnv),
// but this process keeps its own.
func scrubSelf() (map[string]string, error) {
	secrets, _ := withheld(os.Environ())
	for name := range secrets {
		os.Unsetenv(name)
	}
	return secrets, nil
}
