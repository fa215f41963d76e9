package completion

import "testing"

func TestBashCompletion(t *testing.T) {
	cmd, err := Find("bash")
	if err != nil {
		t.Errorf("Unexpected error: %v", err)
	}
	if flag := cmd.Lookup("no-descriptions"); flag != nil {
		t.Errorf("Unexpected --no-descriptions flag for bash")
	}
}
