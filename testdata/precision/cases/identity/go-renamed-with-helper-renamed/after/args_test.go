package args

import "testing"

func checkNoArgsWithArgs(err error, t *testing.T) {
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

func TestNoArgs_WithArgs(t *testing.T) {
	checkNoArgsWithArgs(NoArgs([]string{"illegal"}), t)
}
