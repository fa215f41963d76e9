//go:build !(aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || windows)

package terminal

// isTerminal: where no terminal driver can be asked (js, wasip1, plan9),
// nothing counts as a terminal, so a decision there always needs a name.
func isTerminal(fd uintptr) bool { return false }
