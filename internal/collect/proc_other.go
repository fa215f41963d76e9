//go:build !unix

package collect

import "os/exec"

// killGroup leaves the default: a cancelled context kills the command only.
func killGroup(cmd *exec.Cmd) {}
