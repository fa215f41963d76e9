//go:build unix && !linux

package loop

import "time"

// cvWaitExit cannot wait for a process that is not a child here without
// polling; known is false unless the process is already gone.
func cvWaitExit(pid int, _ time.Duration) (exited, known bool) {
	if !Alive(pid) {
		return true, true
	}
	return false, false
}
