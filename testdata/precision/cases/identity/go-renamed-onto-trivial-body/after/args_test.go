package args

import "testing"

func TestNoArgs(t *testing.T) {
	if err := NoArgs(nil); err != nil {
		t.Fatal(err)
	}
}

func TestNoArgs_WithArgs(t *testing.T) {
	_ = NoArgs([]string{"one"})
}
