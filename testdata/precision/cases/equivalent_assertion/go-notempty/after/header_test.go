package header

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestContentType(t *testing.T) {
	got := ContentType("file.go")
	assert.NotEmpty(t, got)
}
