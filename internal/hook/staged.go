package hook

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitcmd"
)

// CommitBypass tells a person how to commit anyway.
const CommitBypass = "to commit anyway (you answer for it): git commit --no-verify, or RALPH_GATE_SKIP=1 git commit"

// stagedIdentity is the author and committer of the commit object that
// holds the staged changes: fixed, so that no user configuration is needed
// and nobody mistakes it for a commit of theirs.
var stagedIdentity = []string{
	"GIT_AUTHOR_NAME=ralph-gate", "GIT_AUTHOR_EMAIL=ralph-gate@localhost",
	"GIT_COMMITTER_NAME=ralph-gate", "GIT_COMMITTER_EMAIL=ralph-gate@localhost",
}

// StagedSubject is the subject of the commit object StagedCommit writes.
const StagedSubject = "the staged changes"

// StagedCommit writes what is staged in the repository at dir as a commit
// object whose parent is head, so that the pre-commit hook analyzes the
// staged changes as the range head..staged, exactly as every other command
// analyzes a range. git's own write-tree and commit-tree do it: the index is
// the one git names in GIT_INDEX_FILE when it runs the hook (git commit -a
// and git commit PATH stage into a temporary index), indexFile here, else
// the repository's. Only objects are written: no ref, and the index and the
// work tree are not touched (git gc prunes the unreferenced commit later).
// same is true when the staged tree is head's: nothing to check.
func StagedCommit(ctx context.Context, dir, indexFile string, head plumbing.Hash) (staged plumbing.Hash, same bool, err error) {
	var env []string
	if indexFile != "" {
		abs, err := filepath.Abs(indexFile)
		if err != nil {
			return plumbing.ZeroHash, false, fmt.Errorf("GIT_INDEX_FILE %s: %w", indexFile, err)
		}
		env = append(env, "GIT_INDEX_FILE="+abs)
	}
	tree, err := gitcmd.Run(ctx, dir, gitcmd.Options{Env: env}, "write-tree")
	if err != nil {
		return plumbing.ZeroHash, false, fmt.Errorf("read the staged changes: %w", err)
	}
	treeID := strings.TrimSpace(string(tree))
	headTree, err := gitcmd.Output(ctx, dir, "rev-parse", "--verify", head.String()+"^{tree}")
	if err != nil {
		return plumbing.ZeroHash, false, fmt.Errorf("read HEAD's tree: %w", err)
	}
	if treeID == headTree {
		return plumbing.ZeroHash, true, nil
	}
	out, err := gitcmd.Run(ctx, dir, gitcmd.Options{Env: stagedIdentity},
		"commit-tree", "--no-gpg-sign", "-p", head.String(), "-m", StagedSubject, treeID)
	if err != nil {
		return plumbing.ZeroHash, false, fmt.Errorf("write the staged changes as a commit object: %w", err)
	}
	id := strings.TrimSpace(string(out))
	if !plumbing.IsHash(id) {
		return plumbing.ZeroHash, false, errors.New("git commit-tree gave no object name: " + quoteShort(id))
	}
	return plumbing.NewHash(id), false, nil
}

// WriteStagedSummary is WriteSummary for the pre-commit hook: the staged
// changes, checked as one change against HEAD, their findings (those that
// block first), and, when the commit is refused, how to see the full report
// and how to commit anyway. It returns the number of blocking findings.
func WriteStagedSummary(w io.Writer, head, staged plumbing.Hash, rep *gate.Report) int {
	fmt.Fprintf(w, "ralph-gate: the staged changes against HEAD %s: %s\n", short(head), rep.Verdict)
	// The findings' commit is the object that holds the staged changes,
	// not a commit of the person's: it is left out of each line.
	var fs []gate.Finding
	for _, f := range rep.Findings {
		f.Commit = ""
		fs = append(fs, f)
	}
	blocking := writeFindings(w, fs, gate.FailOn(rep.FailOn), nil)
	if blocking > 0 {
		fmt.Fprintf(w, "ralph-gate: commit refused: %s at or above %s (fail_on in %s at HEAD, or --fail-on)\n",
			plural(blocking, "net finding"), rep.FailOn, ".ralph-gate.yml")
		fmt.Fprintf(w, "ralph-gate: the full report: ralph-gate analyze %s %s\n", short(head), short(staged))
		fmt.Fprintf(w, "ralph-gate: %s\n", CommitBypass)
	}
	return blocking
}
