package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitcmd"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/hook"
)

// runHookPreCommit checks the staged changes before git (or the pre-commit
// framework) records them: the index against HEAD, written as a commit
// object and analyzed as the range HEAD..staged, with .ralph-gate.yml from
// HEAD. It is static whatever hook.collect says: a commit is not the place
// to run the tests twice.
func runHookPreCommit(ctx context.Context, args []string, env Env) error {
	fs := newFlagSet("hook pre-commit", env)
	repoFlag := fs.String("repo", "", "the repository `DIR` (default: the current directory)")
	var failOnFlag gate.FailOnFlag
	fs.Var(&failOnFlag, "fail-on", "the lowest severity `SEV` that blocks: critical, high, medium, low, none (default: the config's fail_on, else high)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("hook", err, env)
	}
	if len(pos) > 0 {
		return usagef("hook pre-commit: unexpected argument %q: it checks everything staged (with the pre-commit framework, set pass_filenames: false)", pos[0])
	}
	if skip := env.Getenv("RALPH_GATE_SKIP"); skip == "1" || strings.EqualFold(skip, "true") || strings.EqualFold(skip, "yes") {
		fmt.Fprintln(env.Stderr, "ralph-gate: RALPH_GATE_SKIP is set: pre-commit check skipped")
		return nil
	}
	failOn := failOnFlag.Value()
	cwd := orDefault(env.Dir, ".")
	dir := *repoFlag
	if dir == "" {
		dir = cwd
	} else if !filepath.IsAbs(dir) && env.Dir != "" {
		dir = filepath.Join(env.Dir, dir)
	}
	head, err := gitcmd.Output(ctx, dir, "rev-parse", "--verify", "-q", "HEAD^{commit}")
	var gitErr *gitcmd.Error
	if errors.As(err, &gitErr) && gitErr.ExitCode() == 1 && gitErr.FirstLine() == "" {
		fmt.Fprintln(env.Stderr, "ralph-gate: pre-commit: nothing to check: this is the repository's first commit (no HEAD to compare with)")
		return nil
	}
	if err != nil || !plumbing.IsHash(head) {
		return withCommitBypass(inputErr(fmt.Errorf("hook pre-commit: %s: not a git work tree with a HEAD: %v", dir, err)))
	}
	// git sets GIT_INDEX_FILE for its hooks, relative to the work tree the
	// hook runs in.
	index := env.Getenv("GIT_INDEX_FILE")
	if index != "" && !filepath.IsAbs(index) {
		index = filepath.Join(cwd, index)
	}
	base := plumbing.NewHash(head)
	staged, same, err := hook.StagedCommit(ctx, dir, index, base)
	if err != nil {
		return withCommitBypass(inputErr(fmt.Errorf("hook pre-commit: %w", err)))
	}
	if same {
		fmt.Fprintln(env.Stderr, "ralph-gate: pre-commit: nothing to check: nothing is staged")
		return nil
	}
	repo, err := gitrepo.Open(dir)
	if err != nil {
		return withCommitBypass(classifyGit(err))
	}
	defer repo.Close()
	cfg, err := loadConfig(repo, base)
	if err != nil {
		return withCommitBypass(err)
	}
	rep, err := analyzeForHook(ctx, repo, base, staged, cfg, failOn, env)
	if err != nil {
		return withCommitBypass(fmt.Errorf("the staged changes: %w", err))
	}
	if n := hook.WriteStagedSummary(env.Stderr, base, staged, rep); n > 0 {
		return &BlockedError{Findings: n}
	}
	return nil
}

// withCommitBypass adds how to commit anyway to an error that stops the
// commit; the error keeps its kind (and exit code).
func withCommitBypass(err error) error {
	if err == nil || errors.Is(err, context.Canceled) {
		return err
	}
	return fmt.Errorf("%w; %s", err, hook.CommitBypass)
}
