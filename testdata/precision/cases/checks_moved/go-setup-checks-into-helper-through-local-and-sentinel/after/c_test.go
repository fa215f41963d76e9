package c

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func newCacheTestHead(t *testing.T) (*Head, *Series) {
	h := NewHead()
	for i := 0; i < 500; i += 5 {
		require.NoError(t, h.Append(i))
	}
	s := h.Series(1)
	require.NotNil(t, s)
	headChunksLen := s.headChunks.len()
	require.Greater(t, headChunksLen, 2, "need at least 3 head chunks")
	return h, s
}

func TestCache(t *testing.T) {
	t.Run("cache_hit", func(t *testing.T) {
		h, s := newCacheTestHead(t)
		cr := h.Reader()
		require.NoError(t, cr.Chunk(s.Newest()))
		sentinel := &chunk{}
		cr.cached[0] = sentinel
		require.NoError(t, cr.Chunk(s.Newest()))
		require.Same(t, sentinel, cr.cached[0], "expected cache hit")
	})
}
