package cfg

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestParseEmpty(t *testing.T) {
	assert.Equal(t, Config{}, Parse(""))
}

func TestParseLegacyLine(t *testing.T) {
	got := Parse("name=a port=80 tag=x")
	assert.Equal(t, Config{Name: "a", Port: "80", Tags: []string{"x"}}, got)
}
