package x

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestGet(t *testing.T) {
	resp, err := Get("/")
	require.NoError(t, err)
	require.Equal(t, 200, resp.StatusCode)
}
