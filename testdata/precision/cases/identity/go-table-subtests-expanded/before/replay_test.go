package replay

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestReplayKeepsST(t *testing.T) {
	type sampleCase struct {
		name         string
		assertReplay func(*testing.T, int64)
	}
	for _, tc := range []sampleCase{
		{
			name: "float",
			assertReplay: func(t *testing.T, got int64) {
				require.Equal(t, int64(50), got)
			},
		},
		{
			name: "histogram",
			assertReplay: func(t *testing.T, got int64) {
				require.Equal(t, int64(50), got)
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Replay(tc.name, 50)
			tc.assertReplay(t, got)
		})
	}
}
