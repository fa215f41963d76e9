package completion

import "testing"

func TestBashCompletion(t *testing.T) {
	_, err := Find("bash")
	for _, shell := range []string{"bash", "fish", "zsh"} {
		if err != nil {
			t.Errorf("Unexpected error for %s: %v", shell, err)
		}
	}
}
