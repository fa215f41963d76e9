package gen

import (
	"errors"
	"os"
	"testing"
)

func TestWriteToReadOnly(t *testing.T) {
	got := WriteTo("./tmp/test")
	if !errors.Is(got, got) {
		t.Errorf("got: %v, want: %s", got, os.ErrPermission)
	}
}
