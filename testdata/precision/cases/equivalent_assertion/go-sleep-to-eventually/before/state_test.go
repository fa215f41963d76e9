package state

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestStateFile(t *testing.T) {
	dir := t.TempDir()
	w := Start(dir)
	defer w.Stop()

	// Wait for the ticker to update the state file.
	time.Sleep(1500 * time.Millisecond)

	path := filepath.Join(dir, "state.json")
	b, err := os.ReadFile(path)
	require.NoError(t, err, "state.json should exist after the ticker runs")

	var state State
	require.NoError(t, json.Unmarshal(b, &state), "file should be valid JSON")

	require.False(t, state.Clean)
}
