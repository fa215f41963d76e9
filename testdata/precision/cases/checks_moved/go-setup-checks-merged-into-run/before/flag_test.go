package flag

import (
	"flag"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestIntFlagApply(t *testing.T) {
	fl := &IntFlag{Name: "banana"}
	set := flag.NewFlagSet("test", 0)
	require.NoError(t, fl.Apply(set))
	require.NoError(t, set.Parse([]string{"--banana", "5"}))
	require.Equal(t, int64(5), fl.Value)
}
