package debug

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestWarning(t *testing.T) {
	re := Warning()
	if minorOf(runtimeVersion) < 24 {
		assert.Equal(t, "requires Go 1.24+\nengine created\n", re)
	} else {
		assert.Equal(t, "engine created\n", re)
	}
}
