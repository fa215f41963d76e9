package cli

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/loop"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
	"github.com/ralph-gate/ralph-gate/internal/pipeline"
)

// TestExitCode: every command's errors map to their exit codes through one
// set of kinds, wrapped or not.
func TestExitCode(t *testing.T) {
	for _, c := range []struct {
		err  error
		want int
	}{
		{nil, ExitPass},
		{errors.New("boom"), ExitInternal},
		{usagef("bad flag"), ExitUsage},
		{&pipeline.InputError{Err: errors.New("no such ref")}, ExitUsage},
		{fmt.Errorf("start: %w", state.ErrNotFound), ExitUsage},
		{&state.LockedError{Loop: "l"}, ExitUsage},
		{&state.CorruptError{Path: "state.json", Err: errors.New("x")}, ExitUsage},
		{&state.TamperedError{Path: "state.json", Why: "changed"}, ExitUsage},
		{&state.LinkError{Path: ".aiwg"}, ExitUsage},
		{&loop.InputError{Msg: "x"}, ExitUsage},
		{&BlockedError{Findings: 1}, ExitBlocked},
		{fmt.Errorf("record: %w", &loop.BlockedError{Msg: "x"}), ExitBlocked},
		{&StopError{Reason: "done"}, ExitStop},
		{&InterruptedError{Loop: "l"}, ExitInterrupted},
		{fmt.Errorf("compare: %w", context.Canceled), ExitInterrupted},
	} {
		if got := ExitCode(c.err); got != c.want {
			t.Errorf("ExitCode(%v) = %d, want %d", c.err, got, c.want)
		}
	}
}
