package collect

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testgit"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
)

// gitEnv pins dates and identities so commits are reproducible.
var gitEnv = []string{
	"GIT_AUTHOR_NAME=Test", "GIT_AUTHOR_EMAIL=test@example.com",
	"GIT_COMMITTER_NAME=Test", "GIT_COMMITTER_EMAIL=test@example.com",
	"GIT_AUTHOR_DATE=2024-01-02T03:04:05Z", "GIT_COMMITTER_DATE=2024-01-02T03:04:05Z",
	"GIT_CONFIG_NOSYSTEM=1", "HOME=/nonexistent",
}

func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	return testgit.RunEnv(t, dir, "", gitEnv, args...)
}

// newRepo makes a repository in a temporary directory with one commit of
// files, and returns its directory and the commit.
func newRepo(t *testing.T, files map[string]string) (string, plumbing.Hash) {
	t.Helper()
	dir := t.TempDir()
	runGit(t, dir, "init", "-q", "-b", "main")
	return dir, commitFiles(t, dir, files, "initial")
}

// commitFiles writes files (an empty value deletes the file) and commits.
func commitFiles(t *testing.T, dir string, files map[string]string, msg string) plumbing.Hash {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if content == "" {
			_ = os.Remove(p)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	runGit(t, dir, "add", "-A")
	runGit(t, dir, "commit", "-q", "--allow-empty", "-m", msg)
	return plumbing.NewHash(runGit(t, dir, "rev-parse", "HEAD"))
}

func openRepo(t *testing.T, dir string) *gitrepo.Repo {
	t.Helper()
	r, err := gitrepo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return r
}

// checkoutState is everything of the user's checkout that measuring must not
// change.
type checkoutState struct {
	Status, Head, Stash, Branches, Worktrees, Index string
}

func stateOf(t *testing.T, dir string) checkoutState {
	t.Helper()
	idx, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	return checkoutState{
		Status:    runGit(t, dir, "status", "--porcelain", "--untracked-files=all", "--ignored"),
		Head:      runGit(t, dir, "symbolic-ref", "HEAD") + " " + runGit(t, dir, "rev-parse", "HEAD"),
		Stash:     runGit(t, dir, "stash", "list"),
		Branches:  runGit(t, dir, "branch", "-a", "-v"),
		Worktrees: runGit(t, dir, "worktree", "list", "--porcelain"),
		Index:     string(idx),
	}
}

// leftovers lists what this package left in the temporary directory.
func leftovers(t *testing.T, tmp string) []string {
	t.Helper()
	entries, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "ralph-gate-") {
			out = append(out, e.Name())
		}
	}
	return out
}
