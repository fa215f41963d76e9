package wbl

import (
	"os"
	"path"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSegmentSizes(t *testing.T) {
	dir := t.TempDir()
	writeSegments(t, dir)
	// segmentSize stats the open file: a directory listing's size can be
	// stale on Windows for a segment just closed.
	segmentSize := func(name string) int64 {
		f, err := os.Open(path.Join(dir, name))
		require.NoError(t, err)
		defer f.Close()
		fi, err := f.Stat()
		require.NoError(t, err)
		return fi.Size()
	}
	files, err := Segments(dir)
	require.NoError(t, err)
	require.Len(t, files, 3)
	require.Greater(t, segmentSize(files[0].Name()), int64(100))
}
