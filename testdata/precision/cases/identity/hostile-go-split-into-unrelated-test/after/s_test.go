package s

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestStatus(t *testing.T) {
	assert.Equal(t, "ok", Status("a"))
}

func TestOther(t *testing.T) {
	assert.Equal(t, "ok", Other())
}
