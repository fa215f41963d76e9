//go:build aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris

package terminal

import "golang.org/x/sys/unix"

// isTerminal asks the terminal driver for fd's settings: only a terminal has
// them (anything else answers ENOTTY).
func isTerminal(fd uintptr) bool {
	_, err := unix.IoctlGetTermios(int(fd), ioctlReadTermios)
	return err == nil
}
