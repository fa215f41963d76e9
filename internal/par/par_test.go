package par

import (
	"sync/atomic"
	"testing"
)

func TestEach(t *testing.T) {
	for _, c := range []struct{ n, min int }{{0, 1}, {1, 1}, {5, 100}, {1000, 2}} {
		var hits [1000]atomic.Int32
		Each(c.n, c.min, func(i int) { hits[i].Add(1) })
		for i := 0; i < len(hits); i++ {
			want := int32(0)
			if i < c.n {
				want = 1
			}
			if got := hits[i].Load(); got != want {
				t.Fatalf("n=%d min=%d: fn(%d) ran %d times, want %d", c.n, c.min, i, got, want)
			}
		}
	}
}
