//go:build go1.19

package form

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFormFileFailed19(t *testing.T) {
	f, err := FormFile("file")
	assert.Error(t, err)
	assert.Nil(t, f)
}
