// Package gitcmd runs the git command line: the one place that builds a git
// command, sets its environment and turns a failure into an *Error. The rest
// of ralph-gate reads repositories through internal/gitrepo; it runs git
// only for what git alone does right (worktrees, status, fetch, hooks).
package gitcmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

// Hardened are the options every run gets unless Options.Plain: the
// repository's configuration, which a change or an agent can write, runs
// no program (no hooks, no fsmonitor).
var Hardened = []string{"-c", "core.hooksPath=" + os.DevNull, "-c", "core.fsmonitor=false"}

// RepoEnv are the variables that point git at a repository. A pre-push hook
// runs with some of them set; a run given its directory must not be sent to
// another repository by them.
var RepoEnv = []string{
	"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR",
	"GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE",
	"GIT_PREFIX", "GIT_CEILING_DIRECTORIES",
}

// Options change a run.
type Options struct {
	// Config are more -c options, after Hardened (filter drivers turned off).
	Config []string
	// Plain runs without Hardened: for the questions whose answer must be
	// the one git gives the user (where it runs hooks).
	Plain bool
	// Env is added to the environment.
	Env []string
	// Stdin, when set, is the command's standard input.
	Stdin io.Reader
}

// Error is a git run that failed: its arguments, how it ended and what git
// said on standard error.
type Error struct {
	Args   []string
	Err    error
	Stderr string
}

func (e *Error) Error() string {
	msg := "git " + strings.Join(e.Args, " ") + ": " + e.Err.Error()
	if l := e.FirstLine(); l != "" {
		msg += ": " + l
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// FirstLine is git's first line on standard error ("fatal: ..."), "" when it
// said nothing.
func (e *Error) FirstLine() string {
	l, _, _ := strings.Cut(strings.TrimSpace(e.Stderr), "\n")
	return strings.TrimSpace(l)
}

// LastLine is git's last line on standard error (a fetch's reason), "" when
// it said nothing.
func (e *Error) LastLine() string {
	s := strings.TrimSpace(e.Stderr)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return strings.TrimSpace(s)
}

// ExitCode is git's exit status, -1 when it did not exit (not found, killed).
func (e *Error) ExitCode() int {
	var exit *exec.ExitError
	if errors.As(e.Err, &exit) {
		return exit.ExitCode()
	}
	return -1
}

// Run runs git in dir (-C dir; "" for the current directory) with opt and
// returns its standard output. The environment is this process's without
// RepoEnv, with prompts and optional locks off: a run never waits for a
// password, and a `git status` killed midway (an agent's timeout, kill -9)
// leaves no index.lock behind for the agent's next `git add`.
func Run(ctx context.Context, dir string, opt Options, args ...string) ([]byte, error) {
	var argv []string
	if dir != "" {
		argv = append(argv, "-C", dir)
	}
	if !opt.Plain {
		argv = append(argv, Hardened...)
	}
	argv = append(append(argv, opt.Config...), args...)
	cmd := exec.CommandContext(ctx, "git", argv...)
	cmd.Env = append(append(WithoutRepoEnv(os.Environ()), "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0"), opt.Env...)
	cmd.Stdin = opt.Stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.Bytes(), &Error{Args: args, Err: err, Stderr: stderr.String()}
	}
	return stdout.Bytes(), nil
}

// Output is Run with no options, its output trimmed.
func Output(ctx context.Context, dir string, args ...string) (string, error) {
	out, err := Run(ctx, dir, Options{}, args...)
	return strings.TrimSpace(string(out)), err
}

// Brief is Output whose error is one line for a person: the command (each
// argument cut at its first line, the whole at 200 characters) and git's
// first line on standard error, or the error itself when git said nothing.
// Like every command here it runs with optional locks off (a `git status`
// killed while it refreshes the index would leave index.lock behind for
// the agent's next `git add`).
func Brief(ctx context.Context, dir string, args ...string) (string, error) {
	out, err := Output(ctx, dir, args...)
	var ge *Error
	if errors.As(err, &ge) {
		return "", fmt.Errorf("git %s: %s", commandLine(args), firstLine(ge.Stderr, ge.Err.Error()))
	}
	return out, err
}

// commandLine is a git command as an error names it: one line, at most 200
// characters (a commit message argument is cut).
func commandLine(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if line, _, cut := strings.Cut(a, "\n"); cut {
			a = line + "..."
		}
		out[i] = a
	}
	s := strings.Join(out, " ")
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

// firstLine is the first line of s, trimmed, or fallback when s is blank.
func firstLine(s, fallback string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return fallback
	}
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// WithoutRepoEnv drops RepoEnv from env.
func WithoutRepoEnv(env []string) []string {
	out := make([]string, 0, len(env))
next:
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		for _, r := range RepoEnv {
			if name == r {
				continue next
			}
		}
		out = append(out, kv)
	}
	return out
}
