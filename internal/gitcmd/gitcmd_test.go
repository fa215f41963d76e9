package gitcmd

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func repo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	ctx := context.Background()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"config", "user.email", "t@example.com"}, {"config", "user.name", "t"}} {
		if _, err := Run(ctx, dir, Options{}, args...); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestHardened: a hook the repository's configuration names does not run,
// unless the run is Plain.
func TestHardened(t *testing.T) {
	dir := repo(t)
	ctx := context.Background()
	hooks := filepath.Join(dir, "myhooks")
	os.MkdirAll(hooks, 0o755)
	marker := filepath.Join(t.TempDir(), "ran")
	os.WriteFile(filepath.Join(hooks, "pre-commit"), []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755)
	if _, err := Run(ctx, dir, Options{}, "config", "core.hooksPath", hooks); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(ctx, dir, Options{}, "commit", "-q", "--allow-empty", "-m", "one"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a hardened run ran the repository's hook")
	}
	if out, err := Output(ctx, dir, "rev-parse", "--git-path", "hooks"); err != nil || out != os.DevNull {
		t.Errorf("hardened --git-path hooks = %q, %v; want %s", out, err, os.DevNull)
	}
	if out, err := Run(ctx, dir, Options{Plain: true}, "rev-parse", "--git-path", "hooks"); err != nil || strings.TrimSpace(string(out)) != hooks {
		t.Errorf("plain --git-path hooks = %q, %v; want %s", out, err, hooks)
	}
	if _, err := Run(ctx, dir, Options{Plain: true}, "commit", "-q", "--allow-empty", "-m", "two"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Error("a plain run did not run the hook: the test proves nothing")
	}
}

// TestRepoEnvIgnored: GIT_DIR in the environment does not send a run given
// its directory to another repository.
func TestRepoEnvIgnored(t *testing.T) {
	a, b := repo(t), repo(t)
	ctx := context.Background()
	Run(ctx, a, Options{}, "commit", "-q", "--allow-empty", "-m", "in a")
	t.Setenv("GIT_DIR", filepath.Join(b, ".git"))
	out, err := Output(ctx, a, "log", "--format=%s")
	if err != nil || out != "in a" {
		t.Errorf("log in a with GIT_DIR=b: %q, %v", out, err)
	}
}

func TestError(t *testing.T) {
	_, err := Run(context.Background(), t.TempDir(), Options{}, "rev-parse", "HEAD")
	var ge *Error
	if !errors.As(err, &ge) {
		t.Fatalf("error %T %v, want *Error", err, err)
	}
	if ge.ExitCode() != 128 || !strings.Contains(ge.FirstLine(), "not a git repository") || !strings.HasPrefix(ge.Error(), "git rev-parse HEAD: exit status 128: fatal: not a git repository") {
		t.Errorf("error = %q, exit %d, first line %q", ge.Error(), ge.ExitCode(), ge.FirstLine())
	}
}

// TestBrief: an error is one line, the command cut where a person would
// stop reading, with git's first line of complaint or the bare error.
func TestBrief(t *testing.T) {
	ctx := context.Background()
	dir := repo(t)
	if out, err := Brief(ctx, dir, "symbolic-ref", "--short", "HEAD"); err != nil || out != "main" {
		t.Fatalf("Brief = %q, %v", out, err)
	}
	msg := "fix\n\nthe long body"
	_, err := Brief(ctx, dir, "commit", "-q", "-m", msg)
	if err == nil || strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "git commit -q -m fix...: ") {
		t.Errorf("commit with nothing to commit: %v", err)
	}
	_, err = Brief(ctx, dir, "rev-parse", strings.Repeat("x", 300))
	if err == nil || !strings.Contains(err.Error(), strings.Repeat("x", 180)+"...: fatal: ") {
		t.Errorf("long argument: %v", err)
	}
	if got := firstLine(" \n", "fallback"); got != "fallback" {
		t.Errorf("firstLine = %q", got)
	}
}
