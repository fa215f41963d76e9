package completion

import "testing"

func TestNoDescriptionsFlag(t *testing.T) {
	for _, shell := range []string{"fish", "zsh"} {
		cmd, err := Find(shell)
		if err != nil {
			t.Errorf("Unexpected error: %v", err)
		}
		if flag := cmd.Lookup("no-descriptions"); flag == nil {
			t.Errorf("Missing --no-descriptions flag for %s shell", shell)
		}
	}
	if got := Version(); got != "1.0" {
		t.Errorf("version %q", got)
	}
}
