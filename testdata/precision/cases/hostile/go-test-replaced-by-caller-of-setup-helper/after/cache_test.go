package scrape

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSeriesRefChange(t *testing.T) {
	testSeriesRefChange(t)
	testSeriesRefChange(t)
}

func testSeriesRefChange(t *testing.T) {
	c := NewCache()
	require.NotNil(t, c)
	c.Track("up", 100)
	_, ok := c.Ref("up")
	require.True(t, ok)
}
