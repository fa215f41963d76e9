package gen

import (
	"testing"
)

func TestWriteToReadOnly(t *testing.T) {
	got := WriteTo("./tmp/test")
	if got == nil {
		t.Error("should raise permission denied error")
	}
	if got.Error() != "open ./tmp/test: permission denied" {
		t.Errorf("got: %s, want: %s", got.Error(), "open ./tmp/test: permission denied")
	}
}
