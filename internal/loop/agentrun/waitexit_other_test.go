//go:build unix && !linux

package agentrun

import (
	"time"

	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// waitExit cannot wait for a process that is not a child here without
// polling; known is false unless the process is already gone.
func waitExit(pid int, _ time.Duration) (exited, known bool) {
	if !state.Alive(pid) {
		return true, true
	}
	return false, false
}
