package terminal

import (
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/terminal/ptytest"
)

// TestIsPseudoTerminal: both ends of a pseudo-terminal are terminals, as a
// person's terminal window (or ssh, tmux, script) is.
func TestIsPseudoTerminal(t *testing.T) {
	t.Parallel()
	controller, tty := ptytest.Open(t)
	if !Is(tty) {
		t.Errorf("Is(%s) = false, want true", tty.Name())
	}
	if !Is(controller) {
		t.Errorf("Is(%s) = false, want true", controller.Name())
	}
}
