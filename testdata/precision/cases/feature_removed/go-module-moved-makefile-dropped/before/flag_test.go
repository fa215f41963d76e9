package cli

import "testing"

func TestFlagString(t *testing.T) {
	if got := (Flag{Name: "n", Value: "1"}).String(); got != "--n=1" {
		t.Errorf("String = %q", got)
	}
}
