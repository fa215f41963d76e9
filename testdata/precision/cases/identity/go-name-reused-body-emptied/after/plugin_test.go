package plugin

import (
	"strings"
	"testing"
)

func TestPlugin(t *testing.T) {
	out := Help(UseLine("kubectl-plugin", "kubectl plugin"))
	if !strings.Contains(out, "kubectl") {
		t.Errorf("wrong usage: %q", out)
	}
}

func TestPluginWithSubCommands(t *testing.T) {
	_ = Help(UseLine("kubectl-plugin sub", "kubectl plugin"))
}
