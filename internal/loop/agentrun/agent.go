package agentrun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/agent"
	"github.com/ralph-gate/ralph-gate/internal/agent/clients"
	"github.com/ralph-gate/ralph-gate/internal/collect"
	"github.com/ralph-gate/ralph-gate/internal/gitcmd"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// Spec is how to run the agent for one iteration.
type Spec struct {
	Command string
	Dir     string
	// Prompt is the prompt file, given on standard input and named in
	// RALPH_GATE_PROMPT_FILE.
	Prompt    string
	LoopID    string
	Iteration int
	Timeout   time.Duration
	// Log is where the agent's output goes (created).
	Log string
	// Echo, when set, also receives the agent's standard error (a
	// terminal's view of what the agent does).
	Echo io.Writer
	// Env is added to the process's environment.
	Env []string
}

// killGrace is how long an agent's process group gets after SIGTERM before
// SIGKILL.
var killGrace = 5 * time.Second

// Run runs the agent once, in its own process group, with the prompt on
// standard input. A timeout or a cancelled ctx (Ctrl-C) stops the whole
// group: SIGTERM, then SIGKILL after a grace period. The agent failing is
// not an error of Run: it is in the AgentRun.
func Run(ctx context.Context, spec Spec) *state.AgentRun {
	run := &state.AgentRun{Command: spec.Command, ExitCode: -1, TimeoutMS: spec.Timeout.Milliseconds()}
	if rel, err := filepath.Rel(spec.Dir, spec.Log); err == nil {
		run.Log = filepath.ToSlash(rel)
	}
	if err := os.MkdirAll(filepath.Dir(spec.Log), 0o755); err != nil {
		run.StartErr = err.Error()
		return run
	}
	logf, err := os.Create(spec.Log)
	if err != nil {
		run.StartErr = err.Error()
		return run
	}
	defer logf.Close()
	in, err := os.Open(spec.Prompt)
	if err != nil {
		run.StartErr = err.Error()
		return run
	}
	defer in.Close()
	scan := agent.UsageScanner{Clients: clients.All}
	stderrTail := &collect.Tail{Max: 4096}
	logw := &lockedWriter{w: logf}
	var errw io.Writer = io.MultiWriter(logw, stderrTail)
	if spec.Echo != nil {
		errw = io.MultiWriter(errw, spec.Echo)
	}
	runCtx := ctx
	cancel := func() {}
	if spec.Timeout > 0 {
		runCtx, cancel = context.WithTimeout(ctx, spec.Timeout)
	}
	defer cancel()
	cmd := exec.CommandContext(runCtx, "sh", "-c", spec.Command)
	cmd.Dir = spec.Dir
	cmd.Stdin = in
	cmd.Stdout = io.MultiWriter(logw, &scan)
	cmd.Stderr = errw
	cmd.Env = append(append(os.Environ(), spec.Env...),
		"RALPH_GATE_LOOP_ID="+spec.LoopID,
		fmt.Sprintf("RALPH_GATE_ITERATION=%d", spec.Iteration),
		"RALPH_GATE_PROMPT_FILE="+spec.Prompt)
	stopGroup(cmd)
	cmd.WaitDelay = killGrace
	start := time.Now()
	err = cmd.Run()
	run.DurationMS = time.Since(start).Milliseconds()
	if cmd.Process != nil {
		// Whatever the agent left running in its group goes with it.
		killGroup(cmd.Process.Pid)
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
		run.ExitCode = 0
	case runCtx.Err() == context.DeadlineExceeded && ctx.Err() == nil:
		run.TimedOut = true
	case errors.As(err, &exit):
		run.ExitCode = exit.ExitCode()
	case cmd.Process == nil:
		run.StartErr = err.Error()
	}
	run.Usage = scan.Usage()
	if scan.Incomplete && run.Usage != nil {
		// A line too long to read may have held usage: the sum is a lower
		// bound, which a budget must not trust.
		run.Usage = nil
	}
	run.StderrTail = LastLines(tail(stderrTail.Text(), 2048), 20)
	return run
}

// lockedWriter serializes the agent's standard output and error into one
// log.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// CommitWork commits everything the agent left in the work tree (tracked
// changes and new files git does not ignore) as one commit, without running
// the repository's hooks (the agent can edit them). It reports whether there
// was anything to commit.
func CommitWork(ctx context.Context, dir, msg string) (bool, error) {
	if _, err := gitcmd.Brief(ctx, dir, "add", "-A"); err != nil {
		return false, err
	}
	if out, err := gitcmd.Brief(ctx, dir, "diff", "--cached", "--name-only"); err != nil {
		return false, err
	} else if out == "" {
		return false, nil
	}
	args := WithIdentity(ctx, dir, "-c", "core.hooksPath="+os.DevNull, "commit", "-q", "--no-verify", "-m", msg)
	if _, err := gitcmd.Brief(ctx, dir, args...); err != nil {
		return false, err
	}
	return true, nil
}

// WithIdentity prefixes git arguments with ralph-gate's identity when the
// repository has none (a fresh CI machine): ralph-gate's own commits (run's
// iteration commits, a reject's restore) must not fail for want of one.
func WithIdentity(ctx context.Context, dir string, args ...string) []string {
	if email, _ := gitcmd.Brief(ctx, dir, "config", "user.email"); email != "" {
		return args
	}
	return append([]string{"-c", "user.name=ralph-gate", "-c", "user.email=ralph-gate@localhost"}, args...)
}

// Uncommitted names the first change of the work tree git would commit with
// add -A (tracked or untracked, not ignored), "" when there is none.
func Uncommitted(ctx context.Context, dir string) (string, error) {
	out, err := gitcmd.Brief(ctx, dir, "status", "--porcelain", "--untracked-files=all")
	if err != nil || out == "" {
		return "", err
	}
	line, _, _ := strings.Cut(out, "\n")
	return strings.TrimSpace(line), nil
}

// LastLines is the last n lines of a process's output (a trailing newline
// ends the last line, it does not make an empty one).
func LastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
