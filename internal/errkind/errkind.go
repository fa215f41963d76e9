// Package errkind is the one set of error kinds every command's errors
// belong to, and so the one place their exit codes come from: an error
// says its kind with a Kind method (or wraps one that does), and
// cli.ExitCode maps the kind to the process's exit code.
package errkind

import (
	"context"
	"errors"
	"fmt"
)

// Kind is what went wrong, as a user needs to know it.
type Kind int

// The kinds, each with its exit code in cli.ExitCode.
const (
	// Internal is ralph-gate's own failure (exit 3).
	Internal Kind = iota
	// Usage is a command-line mistake (exit 2).
	Usage
	// Input is input or state the user can fix: an unknown ref, a
	// malformed config, report or loop state, a held lock (exit 2).
	Input
	// Blocked says the gate blocked (exit 1).
	Blocked
	// Stop says a loop should stop (exit 4).
	Stop
	// Interrupted is Ctrl-C or SIGTERM, after cleaning up (exit 130).
	Interrupted
)

// Kinded is an error that says its kind.
type Kinded interface {
	error
	Kind() Kind
}

// Of is err's kind: the first error of its chain that says one; a
// cancelled context is Interrupted (only the signal handler cancels), any
// other error Internal.
func Of(err error) Kind {
	var k Kinded
	switch {
	case errors.As(err, &k):
		return k.Kind()
	case errors.Is(err, context.Canceled):
		return Interrupted
	}
	return Internal
}

// Error gives an error a kind.
type Error struct {
	K   Kind
	Err error
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }
func (e *Error) Kind() Kind    { return e.K }

// BlockedError says the gate blocked; the report has already been written.
type BlockedError struct{ Findings int }

func (e *BlockedError) Error() string {
	return fmt.Sprintf("blocked: %d net findings at or above the fail-on severity", e.Findings)
}

// Kind: the gate blocked.
func (e *BlockedError) Kind() Kind { return Blocked }
