package flag

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestIntFlagApply(t *testing.T) {
	fl := &IntFlag{Name: "banana"}
	cmd := &Command{Flags: []*IntFlag{fl}}
	require.NoError(t, cmd.Run([]string{"--banana", "5"}))
	require.Equal(t, int64(5), fl.Value)
}
