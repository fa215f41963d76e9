package form

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFormFile(t *testing.T) {
	_, err := FormFile("")
	assert.Error(t, err)
}
