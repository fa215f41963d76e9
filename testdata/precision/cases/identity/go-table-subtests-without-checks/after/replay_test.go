package replay

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestReplayKeepsST(t *testing.T) {
	type sampleCase struct {
		name string
	}
	for _, tc := range []sampleCase{
		{name: "float"},
		{name: "histogram"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Replay(tc.name, 50)
			_ = got
		})
	}
}
