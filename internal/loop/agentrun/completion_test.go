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

	"github.com/go-git/go-git/v5/plumbing"
)

// TestRunCompletion: the completion command passes, fails, runs past
// its timeout, or cannot start; each is a check, never an error.
func TestRunCompletion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	now := t0
	c := RunCompletion(ctx, dir, "echo fine", time.Minute, 2, now)
	if !c.Passed || c.ExitCode != 0 || c.Output != "fine\n" || c.Iteration != 2 || !c.Timestamp.Equal(now) {
		t.Errorf("passing = %+v", c)
	}
	c = RunCompletion(ctx, dir, "echo bad >&2; exit 4", time.Minute, 1, now)
	if c.Passed || c.ExitCode != 4 || c.Output != "bad\n" {
		t.Errorf("failing = %+v", c)
	}
	c = RunCompletion(ctx, dir, "exec sleep 600", 200*time.Millisecond, 1, now)
	if c.Passed || c.ExitCode != -1 || !strings.Contains(c.Output, "ran past 200ms and was stopped") {
		t.Errorf("timeout = %+v", c)
	}
	c = RunCompletion(ctx, filepath.Join(dir, "missing"), "true", time.Minute, 1, now)
	if c.Passed || c.ExitCode != -1 || !strings.Contains(c.Output, "[ralph-gate: ") {
		t.Errorf("cannot start = %+v", c)
	}
	// Long output keeps its tail, from a line start.
	c = RunCompletion(ctx, dir, `i=0; while [ $i -lt 500 ]; do echo "output line $i"; i=$((i+1)); done; exit 1`, time.Minute, 1, now)
	if len(c.Output) > maxOutput+3 || !strings.HasPrefix(c.Output, "...output line ") || !strings.HasSuffix(c.Output, "output line 499\n") {
		t.Errorf("long output = %d bytes, %q...", len(c.Output), c.Output[:40])
	}
	// A commit that is not in the repository fails the check.
	r := newWorkRepo(t)
	c = RunCompletionAt(ctx, r.dir, plumbing.NewHash("1111111111111111111111111111111111111111"), "true", time.Minute, 3, now)
	if c.Passed || c.ExitCode != -1 || !strings.HasPrefix(c.Output, "[ralph-gate: the completion command did not run: ") {
		t.Errorf("missing commit = %+v", c)
	}
}

// TestRunCompletionTimeoutStopsItsChildren: a completion command that
// runs past its timeout is stopped with the processes it started (its own
// process group), as an agent is.
func TestRunCompletionTimeoutStopsItsChildren(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c := RunCompletion(context.Background(), dir, "sleep 600 & echo $! > child.pid; wait", 200*time.Millisecond, 1, t0)
	if c.Passed || c.ExitCode != -1 {
		t.Fatalf("check = %+v", c)
	}
	data, err := os.ReadFile(filepath.Join(dir, "child.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	if exited, known := waitExit(pid, 10*time.Second); known && !exited {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the completion command's child %d outlived its timeout", pid)
	}
}

// TestRunCompletionAtIgnoresTheWorkTree: the completion command runs
// in a clean worktree of the commit: an untracked or ignored file in the
// user's work tree does not make it pass, and the worktree is removed.
func TestRunCompletionAtIgnoresTheWorkTree(t *testing.T) {
	t.Parallel()
	r := newWorkRepo(t)
	r.write("DONE", "cheat\n")
	head := plumbing.NewHash(r.head())
	c := RunCompletionAt(context.Background(), r.dir, head, "pwd; test -f DONE && test -f calc.go", time.Minute, 1, t0)
	if c.Passed || c.ExitCode != 1 {
		t.Errorf("completion saw the work tree's DONE: %+v", c)
	}
	if strings.HasPrefix(strings.TrimSpace(c.Output), r.dir) {
		t.Errorf("the completion command ran in the work tree %s", c.Output)
	}
	r.commit("done")
	c = RunCompletionAt(context.Background(), r.dir, plumbing.NewHash(r.head()), "test -f DONE && test -f calc.go", time.Minute, 2, t0)
	if !c.Passed {
		t.Errorf("committed DONE: %+v", c)
	}
	if wts := r.git("worktree", "list", "--porcelain"); strings.Count(wts, "worktree ") != 1 {
		t.Errorf("worktrees left behind:\n%s", wts)
	}
}

func TestTail(t *testing.T) {
	t.Parallel()
	if got := tail("short", 10); got != "short" {
		t.Errorf("tail(short) = %q", got)
	}
	// No newline near the cut: a byte cut, moved past a broken rune.
	s := strings.Repeat("é", 20)
	got := tail(s, 9)
	if !strings.HasPrefix(got, "...") || strings.ContainsRune(got, '\uFFFD') || got != "..."+strings.Repeat("é", 4) {
		t.Errorf("tail of runes = %q", got)
	}
	if got := tail("first line\nsecond line\nthird", 14); got != "...third" {
		t.Errorf("tail at a line = %q", got)
	}
}
