package mode

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSet(t *testing.T) {
	Set("")
	assert.Equal(t, "test", Get())

	Set("debug")
	assert.Equal(t, "debug", Get())
}
