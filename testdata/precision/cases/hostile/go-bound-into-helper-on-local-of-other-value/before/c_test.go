package c

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCache(t *testing.T) {
	t.Run("cache_hit", func(t *testing.T) {
		h := NewHead()
		for i := 0; i < 500; i += 5 {
			require.NoError(t, h.Append(i))
		}
		s := h.Series(1)
		require.NotNil(t, s)
		require.Greater(t, s.headChunks.len(), 1, "need multiple head chunks")
		cr := h.Reader()
		require.NoError(t, cr.Chunk(s.Newest()))
		cached := cr.cached
		require.NoError(t, cr.Chunk(s.Newest()))
		require.Same(t, &cached[0], &cr.cached[0], "expected cache hit")
	})
}
