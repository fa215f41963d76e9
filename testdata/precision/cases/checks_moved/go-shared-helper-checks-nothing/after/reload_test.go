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
	waitForReady(t, port)
}

func waitForReady(t testing.TB, port int) {
	t.Helper()
	_ = Ready(port)
}
