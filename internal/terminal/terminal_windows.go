//go:build windows

package terminal

import "golang.org/x/sys/windows"

// isTerminal reports whether the handle is a console: only a console has a
// console mode (the NUL device, pipes and files do not).
func isTerminal(fd uintptr) bool {
	var mode uint32
	return windows.GetConsoleMode(windows.Handle(fd), &mode) == nil
}
