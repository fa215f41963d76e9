package pipeline

import (
	"fmt"

	"github.com/ralph-gate/ralph-gate/internal/errkind"
)

// InputError is bad input the user can fix: no test results at an end, a
// report glob that matches nothing, a malformed report, coverage in units
// that cannot be compared. Its message names the file, ref or side.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// Kind: input the user can fix.
func (e *InputError) Kind() errkind.Kind { return errkind.Input }

func inputErr(err error) error {
	if err == nil {
		return nil
	}
	return &InputError{Err: err}
}

func inputf(format string, args ...any) error { return &InputError{Err: fmt.Errorf(format, args...)} }
