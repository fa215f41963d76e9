// Package agentrun runs the processes of a Ralph loop: the agent of an
// iteration and the completion command. Each runs in a process group of its
// own, so that a timeout or Ctrl-C stops everything it started (SIGTERM,
// then SIGKILL after a grace period), and what it leaves is read back, never
// trusted: the agent's exit, its usage lines (agent.UsageScanner) and the
// tail of its standard error; the completion command's exit and output, run
// in a clean worktree of the commit rather than the agent's work tree. It
// decides nothing: internal/loop runs them and judges what they did.
//
// Files:
//
//	agent.go       Run (the agent, with the prompt on standard input), CommitWork and Uncommitted (what it left in the work tree), WithIdentity, LastLines
//	completion.go  RunCompletion and RunCompletionAt (in a temporary worktree of a commit)
//	group_unix.go  the process group: SIGTERM, then SIGKILL (group_windows.go: the process alone)
package agentrun
