package p

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, s := range []string{"a b", "c d"} {
		t.Run(s, func(t *testing.T) {
			if n := len(strings.Fields(s)); n != 2 {
				t.Errorf("fields = %d", n)
			}
		})
	}
}
