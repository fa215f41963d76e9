package main

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/collect"
)

// secretsFD names the descriptor a re-executed ralph-gate reads the
// withheld variables from.
const secretsFD = "RALPH_GATE_SECRETS_FD"

// withheld splits the process's environment: the variables HEAD's code must
// never see (tokens, the runner's file commands: collect.IsSecretName, less
// RALPH_GATE_KEEP_ENV) and the rest.
func withheld(environ []string) (secrets map[string]string, rest []string) {
	keep := collect.KeptNames(environ)
	for _, kv := range environ {
		name, v, _ := strings.Cut(kv, "=")
		if collect.IsSecretName(name) && !slices.Contains(keep, name) && !strings.HasPrefix(name, "RALPH_GATE_") {
			if secrets == nil {
				secrets = map[string]string{}
			}
			secrets[name] = v
			continue
		}
		rest = append(rest, kv)
	}
	return secrets, rest
}

// readSecrets reads what the process before the re-exec handed over, and
// closes the descriptor: from here on the values live only in this
// process's memory, which a child cannot read (/proc/PID/environ of this
// process no longer holds them).
func readSecrets() (map[string]string, error) {
	v := os.Getenv(secretsFD)
	if v == "" {
		return nil, nil
	}
	os.Unsetenv(secretsFD)
	var fd int
	if _, err := fmt.Sscan(v, &fd); err != nil || fd < 3 {
		return nil, fmt.Errorf("%s=%q is not a descriptor", secretsFD, v)
	}
	f := os.NewFile(uintptr(fd), "secrets")
	defer f.Close()
	var m map[string]string
	if err := json.NewDecoder(f).Decode(&m); err != nil {
		return nil, fmt.Errorf("read the withheld variables: %w", err)
	}
	return m, nil
}
