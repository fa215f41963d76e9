//go:build windows

package agentrun

import "os/exec"

// stopGroup: Windows has no process groups to signal; a cancelled context
// kills the agent process itself.
func stopGroup(cmd *exec.Cmd) {}

func killGroup(pid int) {}
