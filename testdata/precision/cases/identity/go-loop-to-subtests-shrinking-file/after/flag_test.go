package flag

import (
	"testing"

	"github.com/stretchr/testify/require"
)

var _ = require.Equal

var uintSliceTests = []struct {
	name     string
	aliases  []string
	value    []uint64
	expected string
}{
	{"heads", nil, nil, "--heads value\t[]"},
	{"H", nil, nil, "--H value\t[]"},
	{
		"heads",
		[]string{"H"},
		[]uint64{9, 3},
		"--heads value\t[9 3]",
	},
}

func TestUintSliceHelpOutput(t *testing.T) {
	for _, test := range uintSliceTests {
		t.Run(test.name, func(t *testing.T) {
			fl := UintSlice{Name: test.name, Aliases: test.aliases, Value: test.value}
			require.Equal(t, test.expected, fl.String())
		})
	}
}
