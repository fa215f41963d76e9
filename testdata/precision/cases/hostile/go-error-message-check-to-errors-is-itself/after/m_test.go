package m

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	err := Parse("x")
	require.ErrorIs(t, err, err)
}
