package mode

import (
	"flag"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSet(t *testing.T) {
	Set("")
	assert.Equal(t, "test", Get())

	tmp := flag.CommandLine
	flag.CommandLine = flag.NewFlagSet("", flag.ContinueOnError)
	Set("")
	assert.Equal(t, "debug", Get())
	flag.CommandLine = tmp

	Set("debug")
	assert.Equal(t, "debug", Get())
}
