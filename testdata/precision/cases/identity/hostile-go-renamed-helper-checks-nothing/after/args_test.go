package args

import "testing"

func checkNoArgs(err error, t *testing.T, arg string) {
	_ = err
	_ = arg
}

func TestNoArgs(t *testing.T) {
	if err := NoArgs(nil); err != nil {
		t.Fatal(err)
	}
}

func TestNoArgs_WithArgs(t *testing.T) {
	checkNoArgs(NoArgs([]string{"one"}), t, "one")
}
