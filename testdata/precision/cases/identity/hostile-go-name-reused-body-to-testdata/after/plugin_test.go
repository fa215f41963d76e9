package plugin

import (
	"strings"
	"testing"
)

// TestPlugin now checks the runnable plugin without sub commands.
func TestPlugin(t *testing.T) {
	out := Help(UseLine("kubectl-plugin", "kubectl plugin"))
	if !strings.Contains(out, "kubectl plugin [flags]") {
		t.Errorf("wrong usage: %q", out)
	}
}
