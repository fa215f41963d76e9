package m

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	got, err := Parse("5")
	require.NoError(t, err)
	require.Equal(t, 5, got)
}
