package wbl

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestWBLCorruption(t *testing.T) {
	dir := t.TempDir()
	files, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, files, 3)
	f1, err := files[1].Info()
	require.NoError(t, err)
	require.Greater(t, f1.Size(), int64(10))
	f0, err := files[0].Info()
	require.NoError(t, err)
	require.Greater(t, f0.Size(), int64(100))
	f2, err := files[2].Info()
	require.NoError(t, err)
	require.Greater(t, f2.Size(), int64(100))
}
