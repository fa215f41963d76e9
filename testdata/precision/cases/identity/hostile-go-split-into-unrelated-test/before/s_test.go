package s

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestStatus(t *testing.T) {
	assert.Equal(t, "ok", Status("a"))
	assert.Equal(t, "ok", Status("b"))
}
