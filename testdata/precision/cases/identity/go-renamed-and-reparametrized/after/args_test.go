package args

import "testing"

func noArgsWithArgs(err error, t *testing.T, arg string) {
	if err == nil {
		t.Fatal("Expected an error")
	}
	if got, want := err.Error(), `unknown command "`+arg+`" for "c"`; got != want {
		t.Errorf("Expected: %q, got: %q", want, got)
	}
}

func TestNoArgs(t *testing.T) {
	if err := NoArgs(nil); err != nil {
		t.Fatal(err)
	}
}

func TestNoArgs_WithArgs(t *testing.T) {
	noArgsWithArgs(NoArgs([]string{"one"}), t, "one")
}

func TestNoArgs_WithTwoArgs(t *testing.T) {
	noArgsWithArgs(NoArgs([]string{"one", "two"}), t, "one")
}
