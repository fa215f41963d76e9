package completion

import "testing"

func TestNoDescriptionsFlag(t *testing.T) {
	// The --no-descriptions flag is present on all shells.
	for _, shell := range []string{"bash", "fish", "powershell", "zsh"} {
		cmd, err := Find(shell)
		if err != nil {
			t.Errorf("Unexpected error: %v", err)
		}
		if flag := cmd.Lookup("no-descriptions"); flag == nil {
			t.Errorf("Missing --no-descriptions flag for %s shell", shell)
		}
	}
}
