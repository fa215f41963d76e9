package loop

import (
	"os"
	"os/exec"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// TestCrashed: a running loop is crashed only when it names a controlling
// process that is gone; start and record name none.
func TestCrashed(t *testing.T) {
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	pid, self := dead.Process.Pid, os.Getpid()
	for _, tc := range []struct {
		name   string
		status state.Status
		pid    *int
		want   bool
	}{
		{"no controller", state.StatusRunning, nil, false},
		{"controller alive", state.StatusRunning, &self, false},
		{"controller gone", state.StatusRunning, &pid, true},
		{"paused, controller gone", state.StatusPaused, &pid, false},
	} {
		if got := Crashed(&state.State{Status: tc.status, PID: tc.pid}); got != tc.want {
			t.Errorf("%s: crashed = %v, want %v", tc.name, got, tc.want)
		}
	}
}
