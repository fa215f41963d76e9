package m

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseNumber(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{{"5", 5}, {"42", 42}} {
		got, err := Parse(c.in)
		require.NoError(t, err)
		require.Equal(t, c.want, got)
	}
}

func TestParseRejectsLetters(t *testing.T) {
	_, err := Parse("x")
	require.Error(t, err)
}
