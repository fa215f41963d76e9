package cli

import "testing"

func TestRun(t *testing.T) {
	a := &App{Name: "x"}
	if got := a.Run([]string{"y"}); got != "x:y" {
		t.Fatalf("Run = %q", got)
	}
}
