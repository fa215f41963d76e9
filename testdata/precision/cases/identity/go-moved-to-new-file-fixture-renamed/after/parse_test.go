package cfg

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

const webLine = "name=web port=8080 tag=prod"

func TestParseLine(t *testing.T) {
	got := Parse(webLine)
	assert.Equal(t, Config{Name: "web", Port: "8080", Tags: []string{"prod"}}, got)
}
