package server

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

var _ = time.Second

func TestReload(t *testing.T) {
	runSteps(t, 9091)
}

func runSteps(t *testing.T, port int) {
	require.Eventually(t, func() bool { return Ready(port) }, 5*time.Second, 100*time.Millisecond)
}
