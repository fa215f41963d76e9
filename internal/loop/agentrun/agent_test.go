//go:build unix

package agentrun

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// agentSpec is a Spec in a temporary work tree with a prompt file.
func agentSpec(t *testing.T, command string) Spec {
	t.Helper()
	dir := t.TempDir()
	prompt := filepath.Join(dir, "prompt.md")
	if err := os.WriteFile(prompt, []byte("do the task\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return Spec{Command: command, Dir: dir, Prompt: prompt, LoopID: "ralph-agent-01234567", Iteration: 4,
		Log: filepath.Join(dir, "logs", "iter-004.log")}
}

// TestRun: the agent gets the prompt on standard input and the
// loop in its environment; its output goes to the log, its usage and the
// tail of its standard error into the run, however it ended.
func TestRun(t *testing.T) {
	t.Parallel()
	spec := agentSpec(t, `read line; echo "got: $line" >&2; echo "$RALPH_GATE_LOOP_ID $RALPH_GATE_ITERATION $RALPH_GATE_PROMPT_FILE" > env.txt; echo '`+claudeLine+`'; echo 'second line' >&2`)
	var echo strings.Builder
	spec.Echo = &echo
	run := Run(context.Background(), spec)
	if run.ExitCode != 0 || run.Failed() || run.TimedOut || run.StartErr != "" || run.Log != "logs/iter-004.log" || run.Command != spec.Command {
		t.Fatalf("run = %+v", run)
	}
	if run.Usage == nil || run.Usage.TotalTokens != 15 || run.Usage.CostUSD == nil || *run.Usage.CostUSD != 0.01 {
		t.Errorf("usage = %+v", run.Usage)
	}
	if run.StderrTail != "got: do the task\nsecond line" || echo.String() != "got: do the task\nsecond line\n" {
		t.Errorf("stderr tail %q, echo %q", run.StderrTail, echo.String())
	}
	env, _ := os.ReadFile(filepath.Join(spec.Dir, "env.txt"))
	if string(env) != "ralph-agent-01234567 4 "+spec.Prompt+"\n" {
		t.Errorf("agent environment = %q", env)
	}
	log, _ := os.ReadFile(spec.Log)
	if !strings.Contains(string(log), "got: do the task") || !strings.Contains(string(log), `"type":"result"`) {
		t.Errorf("log = %q", log)
	}

	// A non-zero exit.
	run = Run(context.Background(), agentSpec(t, "echo failing >&2; exit 3"))
	if run.ExitCode != 3 || !run.Failed() || run.TimedOut || run.Usage != nil || run.StderrTail != "failing" {
		t.Errorf("exit 3: %+v", run)
	}
	// Only the last 20 lines of standard error are kept.
	run = Run(context.Background(), agentSpec(t, `i=0; while [ $i -lt 30 ]; do echo "line $i" >&2; i=$((i+1)); done`))
	if lines := strings.Split(run.StderrTail, "\n"); len(lines) != 20 || lines[0] != "line 10" || lines[19] != "line 29" {
		t.Errorf("stderr tail = %q", run.StderrTail)
	}
}

// TestRunTimeout: past its timeout the agent's whole process
// group is stopped, a child it left in the background included.
func TestRunTimeout(t *testing.T) {
	t.Parallel()
	spec := agentSpec(t, `sleep 600 & echo $! > child.pid; wait`)
	spec.Timeout = 300 * time.Millisecond
	run := Run(context.Background(), spec)
	if !run.TimedOut || run.ExitCode != -1 || !run.Failed() || !strings.Contains(run.Failure(), "ran past the iteration timeout") {
		t.Fatalf("run = %+v", run)
	}
	data, err := os.ReadFile(filepath.Join(spec.Dir, "child.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	// The group was stopped: the child exits (it may still be on its way out
	// when RunAgent returns, so wait for its exit, not for a time).
	if exited, known := waitExit(pid, 10*time.Second); !known {
		t.Logf("cannot wait for pid %d here; not checked", pid)
	} else if !exited {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the agent's background child %d survived the timeout", pid)
	}
}

// TestRunCannotStart: an agent that cannot start is a failed run,
// never an error of the loop.
func TestRunCannotStart(t *testing.T) {
	t.Parallel()
	spec := agentSpec(t, "true")
	spec.Prompt = filepath.Join(spec.Dir, "missing.md")
	if run := Run(context.Background(), spec); run.StartErr == "" || !strings.HasPrefix(run.Failure(), "the agent could not be started: ") || run.ExitCode != -1 {
		t.Errorf("missing prompt: %+v", run)
	}
	spec = agentSpec(t, "true")
	if err := os.WriteFile(filepath.Join(spec.Dir, "logs"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if run := Run(context.Background(), spec); run.StartErr == "" {
		t.Errorf("log directory is a file: %+v", run)
	}
	spec = agentSpec(t, "true")
	spec.Log = spec.Dir // a directory cannot be created as a file
	if run := Run(context.Background(), spec); run.StartErr == "" {
		t.Errorf("log is a directory: %+v", run)
	}
	spec = agentSpec(t, "true")
	spec.Dir = filepath.Join(spec.Dir, "no-such-dir")
	if run := Run(context.Background(), spec); run.StartErr == "" || run.ExitCode != -1 {
		t.Errorf("missing work tree: %+v", run)
	}
}

// TestCommitWork: everything git would add is committed in one commit
// without the repository's hooks; nothing to commit is not an error.
func TestCommitWork(t *testing.T) {
	t.Parallel()
	r := newWorkRepo(t)
	ctx := context.Background()
	if ok, err := CommitWork(ctx, r.dir, "nothing"); err != nil || ok {
		t.Fatalf("clean tree: %v, %v", ok, err)
	}
	r.write(".gitignore", "*.log\n")
	r.write("new/file.go", "package new\n")
	r.write("calc.go", fixedCalc)
	r.write("debug.log", "ignored\n")
	hook := filepath.Join(r.dir, ".git", "hooks", "pre-commit")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	before := r.head()
	ok, err := CommitWork(ctx, r.dir, "ralph-gate: iteration 1\n\nbody\n")
	if err != nil || !ok {
		t.Fatalf("commit: %v, %v", ok, err)
	}
	if r.git("rev-parse", "HEAD^") != before || r.git("log", "-1", "--format=%s") != "ralph-gate: iteration 1" {
		t.Errorf("commit %s on %s", r.git("log", "-1", "--format=%s"), r.git("rev-parse", "HEAD^"))
	}
	if files := r.git("show", "--name-only", "--format=", "HEAD"); files != ".gitignore\ncalc.go\nnew/file.go" {
		t.Errorf("committed files = %q", files)
	}
	if s := r.git("status", "--porcelain"); s != "" {
		t.Errorf("left after the commit: %q", s)
	}
	if _, err := CommitWork(ctx, t.TempDir(), "m"); err == nil {
		t.Error("CommitWork outside a repository: no error")
	}
}

// TestCommitWorkWithoutIdentity: with no user configured anywhere,
// the commit is made as ralph-gate.
func TestCommitWorkWithoutIdentity(t *testing.T) {
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for _, v := range []string{"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "EMAIL"} {
		t.Setenv(v, "")
		os.Unsetenv(v)
	}
	r := newWorkRepo(t)
	r.git("config", "--unset", "user.name")
	r.git("config", "--unset", "user.email")
	r.write("calc.go", fixedCalc)
	ok, err := CommitWork(context.Background(), r.dir, "work")
	if err != nil || !ok {
		t.Fatalf("commit: %v, %v", ok, err)
	}
	if who := r.git("log", "-1", "--format=%an <%ae>"); who != "ralph-gate <ralph-gate@localhost>" {
		t.Errorf("author = %q", who)
	}
}
