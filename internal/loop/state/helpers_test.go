package state

import "time"

// t0 is the tests' clock.
var t0 = time.Date(2025, 3, 4, 10, 0, 0, 0, time.UTC)
