package b

import (
	"slices"
	"testing"
)

// TestWithoutVariables: by its exact name.
func TestWithoutVariables(t *testing.T) {
	if got := WithoutVariables([]string{"A=1", "INPUT_TOKEN=s", "INPUT_TOKENS=2"}, "INPUT_TOKEN"); !slices.Equal(got, []string{"A=1", "INPUT_TOKENS=2"}) {
		t.Errorf("WithoutVariables = %v", got)
	}
}
