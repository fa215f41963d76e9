package agentrun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/gitcmd"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/internal/collect"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// maxOutput bounds the completion output kept in state.json.
const maxOutput = 2048

// RunCompletionAt runs the completion command in a clean temporary worktree
// of commit, never in the user's working tree: the working tree is the
// agent's, and an uncommitted, untracked or ignored file there (a DONE
// marker, a patched dependency) must not make completion pass. A worktree
// that cannot be made fails the check.
func RunCompletionAt(ctx context.Context, repoDir string, commit plumbing.Hash, command string, timeout time.Duration, iteration int, now time.Time) state.CompletionCheck {
	wt, err := collect.AddWorktree(ctx, repoDir, commit.String())
	if err != nil {
		return state.CompletionCheck{Iteration: iteration, Timestamp: now, ExitCode: -1,
			Output: "[ralph-gate: the completion command did not run: " + tail(err.Error(), 300) + "]"}
	}
	defer wt.Remove()
	// The command runs the agent's code in a checkout that shares the
	// repository's git directory: what it does to the git files that run
	// programs (config, hooks) is undone, and fails the check.
	var guard *collect.RepoGuard
	if gitDir, err := gitcmd.Output(ctx, repoDir, "rev-parse", "--absolute-git-dir"); err == nil {
		guard, _ = collect.GuardRepo(gitDir)
	}
	check := RunCompletion(ctx, wt.Dir, command, timeout, iteration, now)
	if guard != nil {
		if changed, err := guard.Restore(); err != nil || len(changed) > 0 {
			check.Passed = false
			if check.ExitCode == 0 {
				check.ExitCode = -1
			}
			check.Output = tail(check.Output+fmt.Sprintf("\n[ralph-gate: the completion command changed the repository's git files (%s), which make git run programs; they were put back, and the check fails]", strings.Join(changed, ", ")), maxOutput)
		}
	}
	return check
}

// RunCompletion runs the completion command with the shell in dir and
// reports whether it passed (exit status 0), with the tail of its combined
// output. A command that cannot start or runs past timeout fails the check;
// neither is an error of the loop.
func RunCompletion(ctx context.Context, dir, command string, timeout time.Duration, iteration int, now time.Time) state.CompletionCheck {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var cmd *exec.Cmd
	if runtime.GOOS == "windows" {
		cmd = exec.CommandContext(ctx, "cmd", "/C", command)
	} else {
		cmd = exec.CommandContext(ctx, "sh", "-c", command)
	}
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	// Its own process group: a timeout or Ctrl-C stops what it started too
	// (go test's test binaries, a sleep holding its output open).
	stopGroup(cmd)
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err := cmd.Run()
	if cmd.Process != nil {
		killGroup(cmd.Process.Pid)
	}
	check := state.CompletionCheck{Iteration: iteration, Timestamp: now, DurationMS: time.Since(start).Milliseconds()}
	var exit *exec.ExitError
	switch {
	case err == nil:
		check.Passed = true
	case ctx.Err() == context.DeadlineExceeded:
		check.ExitCode = -1
		out.WriteString("\n[ralph-gate: the completion command ran past " + timeout.String() + " and was stopped]")
	case errors.As(err, &exit):
		check.ExitCode = exit.ExitCode()
	default:
		check.ExitCode = -1
		out.WriteString("\n[ralph-gate: " + err.Error() + "]")
	}
	check.Output = tail(out.String(), maxOutput)
	return check
}

// tail keeps the last n bytes of s, starting at a line when it can.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[len(s)-n:]
	if i := bytes.IndexByte([]byte(s), '\n'); i >= 0 && i < 200 {
		s = s[i+1:]
	}
	for len(s) > 0 && s[0]&0xC0 == 0x80 {
		s = s[1:]
	}
	return "..." + s
}
