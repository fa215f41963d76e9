package form

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFormFile(t *testing.T) {
	_, err := FormFile("")
	assert.Error(t, err)
}

func TestFormFileFailed(t *testing.T) {
	f, err := FormFile("file")
	assert.Error(t, err)
	assert.Nil(t, f)
}
