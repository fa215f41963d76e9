package parse

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestArgsAfterTerminator(t *testing.T) {
	args := Args([]string{"--opt", "my-arg", "--", "notAFlag"})
	require.Equal(t, "my-arg", args[0])
	require.Equal(t, "--", args[1])
	require.Equal(t, "notAFlag", args[2])
}
