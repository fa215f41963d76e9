package trace

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFramePointsAtTheCall(t *testing.T) {
	out := Frame(58)
	assert.Contains(t, out, "trace_test.go:58:11")
}
