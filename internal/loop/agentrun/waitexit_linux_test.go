//go:build linux

package agentrun

import (
	"errors"
	"time"

	"golang.org/x/sys/unix"
)

// waitExit waits up to limit for the process pid to exit, through a pidfd
// that becomes readable when it does: no polling, no guess at how long an
// exit takes on a loaded machine. known is false where pidfds are missing.
func waitExit(pid int, limit time.Duration) (exited, known bool) {
	fd, err := unix.PidfdOpen(pid, 0)
	if errors.Is(err, unix.ESRCH) {
		return true, true // gone and reaped
	}
	if err != nil {
		return false, false
	}
	defer unix.Close(fd)
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(fds, int(limit.Milliseconds()))
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return false, false
		}
		return n > 0, true
	}
}
