package cli

import "testing"

func TestNewCommand(t *testing.T) {
	if got := NewCommand("c").Name; got != "c" {
		t.Fatalf("name = %q", got)
	}
}
