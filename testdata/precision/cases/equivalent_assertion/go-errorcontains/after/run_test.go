package run

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

var _ = strings.Contains
var _ = assert.Equal

func TestRunError(t *testing.T) {
	err := Run([]string{"bar", "--flag=wrong"})
	assert.ErrorContains(t, err, "intercepted in bar")
}
