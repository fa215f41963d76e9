package scrape

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCacheRefUpdatedOnChange(t *testing.T) {
	c := NewCache()
	c.Track("up", 100)
	ref, ok := c.Ref("up")
	require.True(t, ok)
	require.Equal(t, uint64(100), ref)
	c.Track("up", 200)
	ref, ok = c.Ref("up")
	require.True(t, ok)
	require.Equal(t, uint64(200), ref, "cache should track the new ref")
}
