//go:build !unix

package collect

import (
	"os"
	"os/exec"
)

// killGroup leaves the default: a cancelled context kills the command only.
func killGroup(cmd *exec.Cmd) {}

// tryLock is not available here: every worktree gets a path of its own.
func tryLock(f *os.File) bool { return false }
