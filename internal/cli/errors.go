package cli

import (
	"fmt"

	"github.com/ralph-gate/ralph-gate/internal/errkind"

	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/pipeline"
)

// Exit codes of every command.
const (
	ExitPass     = 0 // pass or warn
	ExitBlocked  = 1 // the gate blocked
	ExitUsage    = 2 // usage, configuration or input error
	ExitInternal = 3 // internal error
	ExitStop     = 4 // record: the loop should stop (completed or a stopping criterion)
	// ExitInterrupted is every command's exit on SIGINT or SIGTERM once it
	// has cleaned up (128 + SIGINT, as shells report it); run pauses its
	// loop.
	ExitInterrupted = 130
)

// UsageError is a command-line mistake: a bad flag, a missing argument.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Kind: a command-line mistake.
func (e *UsageError) Kind() errkind.Kind { return errkind.Usage }

func usagef(format string, args ...any) error { return &UsageError{Msg: fmt.Sprintf(format, args...)} }

// InputError is bad input the user can fix: an unknown ref, a malformed config or
// report, a repository that is not one. Its message names the file or ref. It is
// the measuring pipeline's kind, so both map to one exit code.
type InputError = pipeline.InputError

func inputErr(err error) error {
	if err == nil {
		return nil
	}
	return &InputError{Err: err}
}

// BlockedError says the gate blocked; the report has already been written.
type BlockedError = errkind.BlockedError

// StopError says a loop should stop; record has already printed why.
type StopError struct{ Reason string }

func (e *StopError) Error() string { return "stop: " + e.Reason }

// Kind: the loop should stop.
func (e *StopError) Kind() errkind.Kind { return errkind.Stop }

// ExitCode maps an error returned by Run to the process exit code, by its
// kind (errkind): every command's errors say their kind the same way.
func ExitCode(err error) int {
	if err == nil {
		return ExitPass
	}
	switch errkind.Of(err) {
	case errkind.Interrupted:
		return ExitInterrupted
	case errkind.Blocked:
		return ExitBlocked
	case errkind.Stop:
		return ExitStop
	case errkind.Usage, errkind.Input:
		return ExitUsage
	}
	return ExitInternal
}

// classifyGit turns the repository errors a user causes into input errors.
func classifyGit(err error) error { return gitrepo.AsInput(err) }
