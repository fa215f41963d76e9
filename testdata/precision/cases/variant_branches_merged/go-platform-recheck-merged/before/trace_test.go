package trace

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFramePointsAtTheCall(t *testing.T) {
	out := Frame(58)
	assert.Contains(t, out, "trace_test.go:58:10")
	if runtime.GOOS == "windows" {
		assert.Contains(t, out, "trace_test.go:58:14")
	}
}
