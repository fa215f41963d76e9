//go:build unix

package collect

import (
	"os/exec"
	"syscall"
)

// killGroup runs the command in its own process group and makes a cancelled
// context kill the whole group: go test, npm and pytest start children that
// would otherwise outlive a timeout or Ctrl-C.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
