package server

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

var _ = time.Second

func TestFeatures(t *testing.T) {
	port := 9090
	require.Eventually(t, func() bool {
		if !Ready(port) {
			return false
		}
		return true
	}, 10*time.Second, 100*time.Millisecond)
	require.NotEmpty(t, Features(port))
}
