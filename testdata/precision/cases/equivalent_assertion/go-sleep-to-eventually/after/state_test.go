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

	path := filepath.Join(dir, "state.json")

	// Poll for the ticker to write the state file.
	var state State
	require.Eventually(t, func() bool {
		b, err := os.ReadFile(path)
		if err != nil {
			return false
		}
		return json.Unmarshal(b, &state) == nil && state.LastID == 1
	}, 10*time.Second, 20*time.Millisecond, "state.json should be written by the ticker")

	require.False(t, state.Clean)
}
