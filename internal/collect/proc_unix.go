//go:build unix

package collect

import (
	"os"
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

// tryLock takes an exclusive lock on f without waiting; false when
// another process (or another open file of this one) holds it.
func tryLock(f *os.File) bool {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}
