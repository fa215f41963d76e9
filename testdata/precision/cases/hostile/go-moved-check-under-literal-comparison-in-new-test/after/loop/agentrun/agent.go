// Package agentrun runs the agent.
package agentrun

// Result is what an agent's run gave.
type Result struct {
	ExitCode int
	Tokens   int
	Log      string
	Stderr   string
}

// Run runs the agent.
func Run(command string) Result {
	if command == "noisy" {
		return Result{Stderr: "line 7\nline 8\nline 9", Log: "logs/iter-006.log"}
	}
	if command == "fail" {
		return Result{ExitCode: 3, Log: "logs/iter-005.log"}
	}
	return Result{Tokens: 15, Log: "logs/iter-004.log"}
}
