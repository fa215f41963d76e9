package server

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

var _ = time.Second

func TestFeatures(t *testing.T) {
	port := 9090
	waitForReady(t, port)
	require.NotEmpty(t, Features(port))
}
