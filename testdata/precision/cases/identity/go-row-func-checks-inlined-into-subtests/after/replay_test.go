package replay

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestWALReplay(t *testing.T) {
	for _, tc := range []struct {
		name string
	}{
		{name: "float"},
		{name: "histogram"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := []int64{50, 60, 70}
			got := Replay(tc.name, in)
			require.Len(t, got, 3)
			require.Equal(t, in, got)
		})
	}
}
