package cfg

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestParseEmpty(t *testing.T) {
	assert.Equal(t, Config{}, Parse(""))
}
