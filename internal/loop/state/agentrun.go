package state

import (
	"fmt"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/agent"
)

// AgentRun is what `ralph-gate run` saw of the agent in one iteration: how
// it ended, how long it took, what it reported it used. It is kept with the
// iteration (iteration_history[].agent).
type AgentRun struct {
	// Command is the command line run (through sh -c).
	Command string `json:"command"`
	// ExitCode is the agent's exit status (-1: killed or not started).
	ExitCode int  `json:"exit_code"`
	TimedOut bool `json:"timed_out,omitempty"`
	// TimeoutMS is the iteration timeout the agent ran under (0: none).
	TimeoutMS  int64 `json:"timeout_ms,omitempty"`
	DurationMS int64 `json:"duration_ms"`
	// StderrTail is the last lines of the agent's standard error.
	StderrTail string `json:"stderr_tail,omitempty"`
	// Log is the agent's standard output and error, relative to the work
	// tree.
	Log string `json:"log"`
	// Usage is what the agent reported on its standard output (nil: it
	// reported nothing, so tokens and cost are unknown).
	Usage *agent.Usage `json:"usage"`
	// StartErr says why the agent could not be started.
	StartErr string `json:"start_error,omitempty"`
}

// Failed reports whether the agent did not end cleanly: it could not start,
// exited non-zero or ran past its time.
func (a *AgentRun) Failed() bool {
	return a != nil && (a.ExitCode != 0 || a.TimedOut || a.StartErr != "")
}

// Failure describes how the agent failed ("" when it did not).
func (a *AgentRun) Failure() string {
	switch {
	case a == nil || !a.Failed():
		return ""
	case a.StartErr != "":
		return "the agent could not be started: " + a.StartErr
	case a.TimedOut:
		return fmt.Sprintf("the agent ran past the iteration timeout (%s) and was stopped", time.Duration(a.TimeoutMS)*time.Millisecond)
	}
	return fmt.Sprintf("the agent exited with status %d", a.ExitCode)
}
