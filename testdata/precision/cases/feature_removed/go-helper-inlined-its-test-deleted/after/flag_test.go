package cli

import "testing"

func TestSplitValues(t *testing.T) {
	if got := splitValues("a,b"); len(got) != 2 {
		t.Errorf("splitValues = %v", got)
	}
}
