package scrape

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSeriesRefChange(t *testing.T) {
	testSeriesRefChange(t, false)
	testSeriesRefChange(t, true)
}

func testSeriesRefChange(t *testing.T, twice bool) {
	for _, tc := range []struct {
		name        string
		refs        []uint64
		expectedRef uint64
	}{
		{"stable", []uint64{100, 100}, 100},
		{"changes on every scrape", []uint64{100, 200}, 200},
		{"changes back", []uint64{100, 200, 100}, 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := NewCache()
			for _, r := range tc.refs {
				c.Track("up", r)
				if twice {
					c.Track("up", r)
				}
			}
			ref, ok := c.Ref("up")
			require.True(t, ok)
			require.Equal(t, tc.expectedRef, ref)
		})
	}
}
