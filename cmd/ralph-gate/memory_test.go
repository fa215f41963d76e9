package main

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestGCPercent(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, 1150},       // ~4 MB to start with: the first collection at ~50 MB
		{8 << 20, 525},  // 8 MB live: the next at 50 MB
		{25 << 20, 100}, // 25 MB: 50 MB
		{35 << 20, 42},  // just under 36 MB: still the floor
		{36 << 20, 40},  // 36 MB: 50.4 MB by growth
		{200 << 20, 40}, // 200 MB: 280 MB
	} {
		if got := gcPercent(c.live); got != c.want {
			t.Errorf("gcPercent(%d MiB) = %d, want %d", c.live>>20, got, c.want)
		}
	}
}

// TestRetuneAfterEachCollection: once armed, GOGC is set again after every
// collection.
func TestRetuneAfterEachCollection(t *testing.T) {
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	armRetune()
	before := retunes.Load()
	for i := 0; i < 3; i++ {
		runtime.GC()
		// The finalizer runs on its own goroutine after the collection;
		// the next collection waits for nothing, so give it its turn.
		for j := 0; j < 1000 && retunes.Load() < before+int64(i)+1; j++ {
			runtime.Gosched()
			runtime.GC()
		}
	}
	if got := retunes.Load() - before; got < 3 {
		t.Fatalf("GOGC set again after %d of at least 3 collections", got)
	}
	// The test's heap is a few MB: the floor sets a GOGC far above 100.
	if got := debug.SetGCPercent(100); got <= 100 {
		t.Errorf("GOGC after collections of a small heap = %d, want the floor's (> 100)", got)
	}
}
