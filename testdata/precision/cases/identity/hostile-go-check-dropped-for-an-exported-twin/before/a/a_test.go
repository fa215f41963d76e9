package a

import (
	"slices"
	"strings"
	"testing"
)

func TestUsage(t *testing.T) {
	if !strings.Contains(Usage(), "usage") {
		t.Errorf("usage: %s", Usage())
	}
	if got := withoutVariables([]string{"A=1", "INPUT_TOKEN=s", "INPUT_TOKENS=2"}, "INPUT_TOKEN"); !slices.Equal(got, []string{"A=1", "INPUT_TOKENS=2"}) {
		t.Errorf("withoutVariables = %v", got)
	}
}
