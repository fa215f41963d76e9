package debug

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestWarning(t *testing.T) {
	assert.Equal(t, "engine created\n", Warning())
}

func TestWarningUnsupportedVersion(t *testing.T) {
	runtimeVersion = "go1.23.12"
	defer func() { runtimeVersion = "go1.25.0" }()
	assert.Equal(t, "requires Go 1.24+\nengine created\n", Warning())
}
