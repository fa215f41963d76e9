package cli

import "testing"

func TestNewAppDefaults(t *testing.T) {
	if got := NewApp().Name; got != "app" {
		t.Fatalf("name = %q", got)
	}
}

func TestRun(t *testing.T) {
	a := &App{Name: "x"}
	if got := a.Run([]string{"y"}); got != "x:y" {
		t.Fatalf("Run = %q", got)
	}
}
