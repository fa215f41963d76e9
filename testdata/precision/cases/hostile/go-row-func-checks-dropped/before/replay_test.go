package replay

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestWALReplay(t *testing.T) {
	for _, tc := range []struct {
		name         string
		assertReplay func(*testing.T, []int64, []int64)
	}{
		{name: "float", assertReplay: func(t *testing.T, want, got []int64) {
			require.Equal(t, want, got)
		}},
		{name: "histogram", assertReplay: func(t *testing.T, want, got []int64) {
			require.Equal(t, want, got)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := []int64{50, 60, 70}
			got := Replay(tc.name, in)
			require.Len(t, got, 3)
			tc.assertReplay(t, in, got)
		})
	}
}
