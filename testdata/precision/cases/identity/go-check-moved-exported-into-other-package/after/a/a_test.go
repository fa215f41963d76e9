package a

import (
	"strings"
	"testing"
)

func TestUsage(t *testing.T) {
	if !strings.Contains(Usage(), "usage") {
		t.Errorf("usage: %s", Usage())
	}
}
