//go:build linux

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// scrubSelf makes sure no credential is in this process's environment
// before any of HEAD's code runs: /proc/PID/environ of ralph-gate is
// readable by every process it starts. When the environment holds one, the
// process re-executes itself without them, handing the values over in a
// memory file that the new image reads and closes at once. It returns the
// withheld variables (nil when there were none).
func scrubSelf() (map[string]string, error) {
	if m, err := readSecrets(); m != nil || err != nil {
		return m, err
	}
	secrets, rest := withheld(os.Environ())
	if len(secrets) == 0 {
		return nil, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return secrets, fmt.Errorf("re-execute without credentials: %w", err)
	}
	fd, err := unix.MemfdCreate("ralph-gate-secrets", 0)
	if err != nil {
		return secrets, fmt.Errorf("re-execute without credentials: %w", err)
	}
	f := os.NewFile(uintptr(fd), "secrets")
	if err := json.NewEncoder(f).Encode(secrets); err != nil {
		f.Close()
		return secrets, fmt.Errorf("re-execute without credentials: %w", err)
	}
	if _, err := f.Seek(0, 0); err != nil {
		f.Close()
		return secrets, fmt.Errorf("re-execute without credentials: %w", err)
	}
	env := append(rest, fmt.Sprintf("%s=%d", secretsFD, fd))
	err = syscall.Exec(exe, os.Args, env)
	f.Close()
	return secrets, fmt.Errorf("re-execute without credentials: %w", err)
}
