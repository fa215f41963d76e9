package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// The heap's size is set by what it holds, above a floor. Analyzing a range
// allocates a lot of short-lived garbage on top of a small live heap (20-50
// MB over prometheus's last 200 commits), and a pre-push hook should stay
// small on large repositories; but a long range's net change holds more
// than any fixed limit, and a limit below the live heap makes the GC run all
// the time (a 75 MiB GOMEMLIMIT took prometheus's last 2,000 commits from
// 6.1 s to 8.4 s). So after each collection GOGC is set for the next one to
// start when the heap reaches max(memFloor, memGrowth x the live heap):
// prometheus's last 200 commits peak at 94-95 MB RSS instead of 122 MB
// (GOGC=200 under a 150 MiB limit) in the same time, and its last 2,000
// take as long. The rules added since grew that peak to 97-101 MB with a
// 56 MiB floor; 50 MiB brings it back to 95-98 MB for about 4% more CPU
// (six interleaved runs of each, 2026-11-29). GOGC or GOMEMLIMIT, when
// set, replace this with the runtime's own policy.
const (
	memFloor  = 50 << 20
	memGrowth = 1.4
)

func tuneMemory() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(gcPercent(0))
	armRetune()
}

// retunes counts the collections after which GOGC was set again.
var retunes atomic.Int64

// armRetune sets GOGC again after the next collection: the finalizer of an
// unreachable object runs once a collection has found it so.
func armRetune() {
	runtime.SetFinalizer(new(gcCycle), func(*gcCycle) {
		debug.SetGCPercent(gcPercent(liveHeap()))
		retunes.Add(1)
		armRetune()
	})
}

// gcCycle holds a pointer: pointer-free objects this small share tiny
// allocation blocks, whose finalizers may never run.
type gcCycle struct{ _ *int }

var liveSample = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}

// liveHeap is the heap the last collection found live, 0 before the first.
func liveHeap() uint64 {
	metrics.Read(liveSample)
	if liveSample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return liveSample[0].Value.Uint64()
}

// gcPercent is the GOGC that starts the next collection when the heap
// reaches max(memFloor, memGrowth x live); before the first collection
// (live 0) the heap starts at about 4 MB.
func gcPercent(live uint64) int {
	if live == 0 {
		live = 4 << 20
	}
	if float64(live)*memGrowth >= memFloor {
		return int(100 * (memGrowth - 1))
	}
	return int(100 * (memFloor/float64(live) - 1))
}
