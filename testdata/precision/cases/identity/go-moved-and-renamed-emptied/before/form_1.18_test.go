//go:build !go1.19

package form

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFormFileFailed18(t *testing.T) {
	assert.Panics(t, func() {
		f, err := FormFile("file")
		assert.Error(t, err)
		assert.Nil(t, f)
	})
}
