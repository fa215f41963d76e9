//go:build never

package b

import (
	"testing"

	"ex.com/m/a"
)

func TestAdd(t *testing.T) {
	if a.Add(2, 3) != 5 {
		t.Fatal("2+3")
	}
}
