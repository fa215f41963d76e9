package args

import "testing"

func noArgsWithArgs(err error, t *testing.T) {
	if err == nil {
		t.Fatal("Expected an error")
	}
	if got, want := err.Error(), `unknown command "illegal" for "c"`; got != want {
		t.Errorf("Expected: %q, got: %q", want, got)
	}
}

func TestNoArgs(t *testing.T) {
	if err := NoArgs(nil); err != nil {
		t.Fatal(err)
	}
}

func TestNoArgsWithArgs(t *testing.T) {
	noArgsWithArgs(NoArgs([]string{"illegal"}), t)
}
