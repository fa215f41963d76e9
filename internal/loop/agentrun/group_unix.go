//go:build unix

package agentrun

import (
	"os/exec"
	"syscall"
	"time"
)

// stopGroup runs cmd in a process group of its own and makes a cancelled
// context stop the whole group with SIGTERM (SIGKILL follows after
// killGrace, through cmd.WaitDelay and killGroup).
func stopGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		pid := cmd.Process.Pid
		err := syscall.Kill(-pid, syscall.SIGTERM)
		go func() {
			time.Sleep(killGrace)
			_ = syscall.Kill(-pid, syscall.SIGKILL)
		}()
		return err
	}
}

// killGroup kills what is left of the process group led by pid.
func killGroup(pid int) { _ = syscall.Kill(-pid, syscall.SIGKILL) }
