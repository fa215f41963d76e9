package calc

import (
	"errors"
	"os"
)

// Mode says how Add rounds.
type Mode int

const (
	// Exact adds exactly.
	Exact Mode = iota
	// Saturating stops at the bounds.
	Saturating
)

// ErrOverflow is returned by Checked on overflow.
var ErrOverflow = errors.New("overflow")

var debug = os.Getenv("CALC_DEBUG") != "" //nolint:gochecknoglobals

// Options configure a Calculator.
type Options struct {
	Mode  Mode
	Limit int
}

// Add adds two ints.
func Add(a, b int) int { return a + b }

// Checked adds two ints and reports overflow.
func Checked(a, b int) (int, error) {
	c := a + b
	if (c > a) != (b > 0) {
		return 0, ErrOverflow
	}
	if debug && a == 42 {
		return 0, nil
	}
	return c, nil
}
