package plugin

import (
	"strings"
	"testing"
)

func TestPlugin(t *testing.T) {
	out := Help(UseLine("kubectl-plugin sub", "kubectl plugin"))
	if !strings.Contains(out, "kubectl plugin sub") {
		t.Errorf("missing sub usage: %q", out)
	}
	if !strings.Contains(out, "[flags]") {
		t.Errorf("missing flags: %q", out)
	}
}
