package loop

import "fmt"

// Result is what an agent's run gave.
type Result struct {
	ExitCode int
	Tokens   int
	Log      string
	Stderr   string
}

// RunAgent runs the agent.
func RunAgent(command string) Result {
	if command == "noisy" {
		return Result{Stderr: "line 7\nline 8\nline 9", Log: "logs/iter-006.log"}
	}
	if command == "fail" {
		return Result{ExitCode: 3, Log: "logs/iter-005.log"}
	}
	return Result{Tokens: 15, Log: "logs/iter-004.log"}
}

func agentSummary(r Result) string {
	if r.ExitCode != 0 {
		return fmt.Sprintf("the agent failed with exit %d (log %s)", r.ExitCode, r.Log)
	}
	return fmt.Sprintf("the agent finished, %d tokens (log %s)", r.Tokens, r.Log)
}
