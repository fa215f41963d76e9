package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/gitcmd"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitrange"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/hook"
	"github.com/ralph-gate/ralph-gate/internal/report"
	"github.com/ralph-gate/ralph-gate/internal/terminal"
)

func init() { register("hook", hookHelp, runHook) }

const hookHelp = `Usage:
  ralph-gate hook install [--repo DIR] [--force]
  ralph-gate hook uninstall [--repo DIR]
  ralph-gate hook pre-push [--repo DIR] [--fail-on SEV] [REMOTE [URL]]
  ralph-gate hook pre-commit [--repo DIR] [--fail-on SEV]

install writes a git pre-push hook that runs 'ralph-gate hook pre-push' before
every push, where git runs hooks (.git/hooks, or core.hooksPath). A pre-push
hook already there is kept: it moves to pre-push.ralph-gate-chained and runs
first, with the same arguments and input, and its failure still refuses the
push. With --force it moves to pre-push.ralph-gate-backup instead and no longer
runs. Installing again changes nothing. uninstall removes the hook and puts
back the one it replaced, unchanged.

pre-push is what the hook runs. It reads git's ref lines on standard input
(<local ref> <local sha> <remote ref> <remote sha>), or, when there are none,
the pre-commit framework's PRE_COMMIT_* variables, and analyzes each pushed
range statically, with .ralph-gate.yml from the range's base:
  an update      the remote's commit..the pushed commit (from their merge-base
                 for a force push; a rewind pushes nothing new)
  a new branch   from its merge-base with REMOTE/HEAD, REMOTE/main,
                 REMOTE/master, else the local default branch
  a tag          like a new branch, unless its commit is already on the remote
                 or on a branch of the same push
  a deletion     nothing
It refuses the push (exit 1) on net findings at or above fail-on (fail_on in
the config, default high) and names each one. With 'hook: {collect: true}' in
.ralph-gate.yml it also measures both ends as compare does (slower: it runs
the tests).

Push anyway, once: git push --no-verify, or RALPH_GATE_SKIP=1 git push.

pre-commit checks what is about to be committed, for a pre-commit hook (the
pre-commit framework's ralph-gate-commit hook runs it): the staged changes
(the index git names in GIT_INDEX_FILE, as for git commit -a) against HEAD,
statically, with .ralph-gate.yml from HEAD, as 'analyze HEAD STAGED' would.
It refuses the commit (exit 1) on net findings at or above fail-on. Commit
anyway, once: git commit --no-verify, or RALPH_GATE_SKIP=1 git commit.

Flags:

Examples:
  ralph-gate hook install
  ralph-gate hook uninstall
`

// executable names the running binary, which install writes into the hook.
var executable = os.Executable

func runHook(ctx context.Context, args []string, env Env) error {
	if len(args) == 0 {
		showHelp(env.Stderr, "hook", env)
		return usagef("hook: want a subcommand: install, uninstall, pre-push or pre-commit")
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "-h", "--help", "-help", "help":
		showHelp(env.Stdout, "hook", env)
		return nil
	case "install":
		return runHookInstall(ctx, rest, env)
	case "uninstall":
		return runHookUninstall(ctx, rest, env)
	case "pre-push":
		return runHookPrePush(ctx, rest, env)
	case "pre-commit":
		return runHookPreCommit(ctx, rest, env)
	}
	return usagef("hook: unknown subcommand %q: want install, uninstall, pre-push or pre-commit", sub)
}

// hooksDir parses install's and uninstall's flags and asks git for the hooks
// directory.
func hooksDir(ctx context.Context, name string, args []string, env Env, force *bool) (string, error) {
	fs := newFlagSet(name, env)
	repo := fs.String("repo", "", "the repository `DIR` (default: the current directory)")
	if force != nil {
		fs.BoolVar(force, "force", false, "install: replace a hook that is not ralph-gate's, keeping it as pre-push.ralph-gate-backup")
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return "", flagError("hook", err, env)
	}
	if len(pos) > 0 {
		return "", usagef("%s: unexpected argument %q (run 'ralph-gate help hook')", name, pos[0])
	}
	dir := *repo
	if dir == "" {
		dir = orDefault(env.Dir, ".")
	} else if !filepath.IsAbs(dir) && env.Dir != "" {
		dir = filepath.Join(env.Dir, dir)
	}
	d, err := hook.HooksDir(ctx, dir)
	if err != nil {
		return "", inputErr(fmt.Errorf("%s: %w", name, err))
	}
	return d, nil
}

func runHookInstall(ctx context.Context, args []string, env Env) error {
	var force bool
	dir, err := hooksDir(ctx, "hook install", args, env, &force)
	if err != nil {
		return err
	}
	if tracked, err := trackedDir(ctx, dir); err != nil {
		return inputErr(fmt.Errorf("hook install: %w", err))
	} else if tracked != "" {
		if !force {
			return inputErr(fmt.Errorf("hook install: the hooks directory %s is tracked in the repository (core.hooksPath; %s): a hook there is part of the change, which an agent can edit to decide what runs on push; point core.hooksPath outside the work tree, or pass --force to install there anyway", dir, tracked))
		}
		fmt.Fprintf(env.Stderr, "ralph-gate: warning: the hooks directory %s is tracked in the repository (%s): a change can edit what runs on push\n", dir, tracked)
	}
	bin := installedBinary()
	res, err := hook.Install(dir, bin, force)
	if err != nil {
		return inputErr(fmt.Errorf("hook install: %w", err))
	}
	runs := "ralph-gate from PATH"
	if bin != "" {
		runs = bin + " (else ralph-gate from PATH)"
	}
	switch res.Action {
	case hook.Unchanged:
		fmt.Fprintf(env.Stdout, "ralph-gate: the pre-push hook %s is already installed; nothing changed\n", res.Path)
		return nil
	case hook.Updated:
		fmt.Fprintf(env.Stdout, "ralph-gate: updated the pre-push hook %s: it runs %s\n", res.Path, runs)
	default:
		fmt.Fprintf(env.Stdout, "ralph-gate: installed the pre-push hook %s: it runs %s\n", res.Path, runs)
	}
	if res.Chained != "" {
		fmt.Fprintf(env.Stdout, "ralph-gate: the hook that was there is now %s: it runs first, and its failure still refuses the push\n", res.Chained)
	}
	if res.Backup != "" {
		fmt.Fprintf(env.Stdout, "ralph-gate: the hook that was there is kept as %s and no longer runs; 'ralph-gate hook uninstall' puts it back\n", res.Backup)
	}
	if strings.Contains(filepath.ToSlash(dir), "/.husky/") {
		fmt.Fprintf(env.Stdout, "ralph-gate: note: core.hooksPath is husky's (%s), which husky rewrites; call ralph-gate from .husky/pre-push instead (see docs/pre-push-hook.md)\n", dir)
	}
	fmt.Fprintf(env.Stdout, "ralph-gate: push anyway, once: git push --no-verify, or RALPH_GATE_SKIP=1 git push\n")
	return nil
}

// installedBinary is the absolute path the hook should run: this binary,
// unless it is a temporary one from 'go run'.
func installedBinary() string {
	p, err := executable()
	if err != nil || !filepath.IsAbs(p) {
		return ""
	}
	if strings.Contains(filepath.ToSlash(p), "/go-build") {
		return ""
	}
	return p
}

func runHookUninstall(ctx context.Context, args []string, env Env) error {
	dir, err := hooksDir(ctx, "hook uninstall", args, env, nil)
	if err != nil {
		return err
	}
	res, err := hook.Uninstall(dir)
	if err != nil {
		return inputErr(fmt.Errorf("hook uninstall: %w", err))
	}
	switch {
	case res.Removed && res.Restored != "":
		fmt.Fprintf(env.Stdout, "ralph-gate: removed the pre-push hook %s and put back the hook it had replaced (from %s)\n", res.Path, filepath.Base(res.Restored))
	case res.Removed:
		fmt.Fprintf(env.Stdout, "ralph-gate: removed the pre-push hook %s\n", res.Path)
	case res.Restored != "":
		fmt.Fprintf(env.Stdout, "ralph-gate: no ralph-gate hook was in place; put back %s as %s\n", res.Restored, res.Path)
	default:
		fmt.Fprintf(env.Stdout, "ralph-gate: no ralph-gate pre-push hook in %s; nothing changed\n", dir)
	}
	return nil
}

func runHookPrePush(ctx context.Context, args []string, env Env) error {
	fs := newFlagSet("hook pre-push", env)
	repoFlag := fs.String("repo", "", "the repository `DIR` (default: the current directory)")
	var failOnFlag gate.FailOnFlag
	fs.Var(&failOnFlag, "fail-on", "pre-push: the lowest severity `SEV` that blocks: critical, high, medium, low, none (default: the config's fail_on, else high)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("hook", err, env)
	}
	if len(pos) > 2 {
		return usagef("hook pre-push: too many arguments: want at most REMOTE and URL, got %d", len(pos))
	}
	if skip := env.Getenv("RALPH_GATE_SKIP"); skip == "1" || strings.EqualFold(skip, "true") || strings.EqualFold(skip, "yes") {
		fmt.Fprintln(env.Stderr, "ralph-gate: RALPH_GATE_SKIP is set: pre-push check skipped")
		return nil
	}
	failOn := failOnFlag.Value()
	remote := at(pos, 0)
	fromPreCommit := false
	updates, err := readRefLines(env)
	if err != nil {
		return withBypass(inputErr(fmt.Errorf("hook pre-push: %w", err)))
	}
	if len(updates) == 0 {
		p, ok, err := hook.FromPreCommitEnv(env.Getenv)
		if err != nil {
			return withBypass(inputErr(fmt.Errorf("hook pre-push: %w", err)))
		}
		if notGit := stdinNotFromGit(env); !ok && notGit != "" {
			// A person at a terminal, or a hook manager that gives the
			// command a terminal or /dev/null instead of git's input
			// (lefthook without use_stdin): checking nothing must not look
			// like a pass.
			return usagef("hook pre-push: reads git's ref lines on standard input, which is %s: run it from a pre-push hook (with lefthook, set use_stdin: true), or pipe '<local ref> <local sha> <remote ref> <remote sha>' lines to it", notGit)
		}
		if !ok {
			fmt.Fprintln(env.Stderr, "ralph-gate: pre-push: nothing to check: no ref lines on standard input (git sends none when everything is up to date; a hook manager must pass git's input on: lefthook needs use_stdin: true)")
			return nil
		}
		updates = []hook.RefUpdate{p.Update}
		remote = orDefault(remote, p.Remote)
		fromPreCommit = true
	}
	dir := *repoFlag
	if dir == "" {
		dir = orDefault(env.Dir, ".")
	} else if !filepath.IsAbs(dir) && env.Dir != "" {
		dir = filepath.Join(env.Dir, dir)
	}
	repo, err := gitrepo.Open(dir)
	if err != nil {
		return withBypass(classifyGit(err))
	}
	defer repo.Close()
	planner := &hook.Planner{Repo: repo, Remote: remote}
	targets, err := planner.Plan(ctx, updates)
	if err != nil {
		return withBypass(classifyGit(err))
	}
	if fromPreCommit {
		// pre-commit's FROM is a commit the remote has, not always the
		// remote ref's value (for a new branch, the parent of the first
		// commit the remote lacks).
		for i := range targets {
			targets[i].BaseFrom = strings.Replace(targets[i].BaseFrom, "the remote's ", hook.EnvPreCommitFromRef+" ", 1)
		}
	}
	var checked []hook.Checked
	for _, t := range targets {
		c := hook.Checked{Target: t}
		if t.Skip == "" && t.SameAs == "" {
			if c.Report, c.Command, err = checkPushed(ctx, repo, dir, t, failOn, env); err != nil {
				return withBypass(fmt.Errorf("%s: %w", t.Update.Name(), err))
			}
		}
		checked = append(checked, c)
	}
	if n := hook.WriteSummary(env.Stderr, checked); n > 0 {
		return &BlockedError{Findings: n}
	}
	return nil
}

// readRefLines reads git's ref lines, unless standard input is absent or
// cannot be git's (stdinNotFromGit).
func readRefLines(env Env) ([]hook.RefUpdate, error) {
	if env.Stdin == nil || stdinNotFromGit(env) != "" {
		return nil, nil
	}
	return hook.ParseRefLines(env.Stdin)
}

// stdinNotFromGit says what standard input is when it cannot be git's input
// to a pre-push hook ("" when it can be): git gives its hook a pipe. A
// terminal is a person running the command by hand, or a hook manager that
// gives it a pseudo-terminal; any other character device is /dev/null from a
// wrapper that passed nothing on (a program run with no input gets it).
func stdinNotFromGit(env Env) string {
	if terminal.Is(env.Stdin) {
		return "a terminal"
	}
	if f, ok := env.Stdin.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			return "a character device such as " + os.DevNull + ", not git's pipe"
		}
	}
	return ""
}

// checkPushed analyzes one pushed range as analyze does, with the
// configuration at its base, or, when that configuration asks for
// hook: {collect: true}, measures it as compare does. The report comes back
// with its verdict decided.
func checkPushed(ctx context.Context, repo *gitrepo.Repo, dir string, t hook.Target, failOn *gate.Severity, env Env) (*gate.Report, string, error) {
	cfg, err := loadConfig(repo, t.Base)
	if err != nil {
		return nil, "", err
	}
	if cfg.Hook.Collect {
		rep, err := comparePushed(ctx, dir, t, failOn, env)
		return rep, "compare", err
	}
	rep, err := analyzeForHook(ctx, repo, t.Base, t.Head, cfg, failOn, env)
	return rep, "analyze", err
}

// analyzeForHook analyzes base..head as analyze does and decides the
// report's verdict, for a hook's summary.
func analyzeForHook(ctx context.Context, repo *gitrepo.Repo, base, head plumbing.Hash, cfg *config.Config, failOn *gate.Severity, env Env) (*gate.Report, error) {
	res, err := gitrange.Analyze(ctx, repo, base, head, cfg, nil)
	if err != nil {
		return nil, classifyGit(err)
	}
	rep := newReport(env, res.Base.String(), res.Head.String(), res.Findings, res.Commits, res.Notes)
	// finish decides the verdict exactly as analyze does; the rendered report
	// is not wanted here, the summary is.
	quiet := Env{Stdout: io.Discard, Stderr: io.Discard, Getenv: env.Getenv, Version: env.Version}
	var blocked *BlockedError
	if err := finish(rep, cfg, failOn, report.JSON, commonFlags{}, quiet); err != nil && !errors.As(err, &blocked) {
		return nil, err
	}
	return rep, nil
}

// comparePushed measures the range through the same pipeline as compare,
// with the configuration at its base, and decides its verdict.
func comparePushed(ctx context.Context, dir string, t hook.Target, failOn *gate.Severity, env Env) (*gate.Report, error) {
	cf := compareFlags{collectMode: "auto"}
	cf.repo = dir
	rep, cfg, err := compareRange(ctx, env, cf, t.Base.String(), t.Head.String())
	if err != nil {
		return nil, err
	}
	cfg.Decide(rep, failOn)
	return rep, nil
}

// withBypass adds how to push anyway to an error that stops the push; the
// error keeps its kind (and exit code).
func withBypass(err error) error {
	if err == nil || errors.Is(err, context.Canceled) {
		return err
	}
	return fmt.Errorf("%w; %s", err, hook.Bypass)
}

// trackedDir says whether a hooks directory lies in the work tree with files
// git tracks ("" when not): a hook there is the change's to edit.
func trackedDir(ctx context.Context, hooks string) (string, error) {
	top, err := gitcmd.Output(ctx, hooks, "rev-parse", "--show-toplevel")
	if err != nil || top == "" {
		return "", nil // not in a work tree (a bare repository's hooks)
	}
	if real, err := filepath.EvalSymlinks(top); err == nil {
		top = real
	}
	real := hooks
	if r, err := filepath.EvalSymlinks(hooks); err == nil {
		real = r
	}
	rel, err := filepath.Rel(top, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", nil
	}
	if rel == ".git" || strings.HasPrefix(filepath.ToSlash(rel), ".git/") {
		return "", nil
	}
	out, err := gitcmd.Output(ctx, top, "ls-files", "--", filepath.ToSlash(rel))
	if err != nil {
		return "", err
	}
	first, _, _ := strings.Cut(out, "\n")
	if first == "" {
		return "", nil
	}
	return "it holds " + first, nil
}
