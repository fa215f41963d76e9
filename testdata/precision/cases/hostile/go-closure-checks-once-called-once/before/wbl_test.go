package wbl

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSegmentSizes(t *testing.T) {
	dir := t.TempDir()
	writeSegments(t, dir)
	files, err := Segments(dir)
	require.NoError(t, err)
	require.Len(t, files, 3)
	f0, err := files[0].Info()
	require.NoError(t, err)
	require.Greater(t, f0.Size(), int64(100))
	f1, err := files[1].Info()
	require.NoError(t, err)
	require.Greater(t, f1.Size(), int64(100))
	f2, err := files[2].Info()
	require.NoError(t, err)
	require.Equal(t, int64(0), f2.Size())
}
