package wbl

import (
	"os"
	"path"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestWBLCorruption(t *testing.T) {
	dir := t.TempDir()
	segmentSize := func(name string) int64 {
		f, err := os.Open(path.Join(dir, name))
		require.NoError(t, err)
		defer f.Close()
		fi, err := f.Stat()
		require.NoError(t, err)
		return fi.Size()
	}
	files, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, files, 3)
	require.Greater(t, segmentSize(files[1].Name()), int64(10))
	require.Greater(t, segmentSize(files[0].Name()), int64(100))
	require.Greater(t, segmentSize(files[2].Name()), int64(100))
}
