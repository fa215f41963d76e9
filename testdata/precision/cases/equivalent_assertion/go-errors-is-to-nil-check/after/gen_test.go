package gen

import (
	"testing"
)

func TestWriteToReadOnly(t *testing.T) {
	got := WriteTo("./tmp/test")
	if got == nil {
		t.Error("should raise an error")
	}
}
