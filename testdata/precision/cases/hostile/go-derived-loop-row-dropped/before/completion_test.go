package completion

import "testing"

func TestNoDescriptionsFlag(t *testing.T) {
	// The --no-descriptions flag is present for the relevant shells only.
	for _, shell := range []string{"fish", "powershell", "zsh"} {
		cmd, err := Find(shell)
		if err != nil {
			t.Errorf("Unexpected error: %v", err)
		}
		if flag := cmd.Lookup("no-descriptions"); flag == nil {
			t.Errorf("Missing --no-descriptions flag for %s shell", shell)
		}
	}
	for _, shell := range []string{"bash"} {
		cmd, err := Find(shell)
		if err != nil {
			t.Errorf("Unexpected error: %v", err)
		}
		if flag := cmd.Lookup("no-descriptions"); flag != nil {
			t.Errorf("Unexpected --no-descriptions flag for %s shell", shell)
		}
	}
}
