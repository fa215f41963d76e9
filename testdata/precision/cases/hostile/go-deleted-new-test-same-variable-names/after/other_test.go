package m

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestOther(t *testing.T) {
	got, err := Other("x")
	require.NoError(t, err)
	require.Equal(t, 1, got)
}
