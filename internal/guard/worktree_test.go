package guard

import (
	"path/filepath"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testgit"
)

// TestWorkspaceLinkedWorktree: in a linked worktree (git worktree add, as
// agents are often run), the git directory is .git/worktrees/NAME of the main
// repository, and what every worktree shares (hooks, config, refs) sits in
// the main repository's .git: out of reach like a plain repository's.
func TestWorkspaceLinkedWorktree(t *testing.T) {
	main := testgit.Init(t)
	testgit.Write(t, main, "f.txt", "1\n")
	testgit.Commit(t, main, "one")
	wt := filepath.Join(t.TempDir(), "wt")
	testgit.Run(t, main, "worktree", "add", "-q", "--detach", wt)
	gitDir := testgit.Run(t, wt, "rev-parse", "--absolute-git-dir")
	ws := NewWorkspace(wt, gitDir, wt, nil)
	tests := []struct {
		name, path string
		own        bool
	}{
		{name: "shared hooks", path: filepath.Join(main, ".git", "hooks", "pre-push"), own: true},
		{name: "shared config", path: filepath.Join(main, ".git", "config"), own: true},
		{name: "shared refs", path: filepath.Join(main, ".git", "refs", "tags", "ralph", "x"), own: true},
		{name: "the worktree's own git directory", path: filepath.Join(gitDir, "HEAD"), own: true},
		{name: "the worktree's .git file", path: filepath.Join(wt, ".git"), own: true},
		{name: "a file of the worktree", path: filepath.Join(wt, "f.txt"), own: false},
		{name: "a file of the main work tree", path: filepath.Join(main, "f.txt"), own: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ws.Resolve(tt.path).Own != ""; got != tt.own {
				t.Errorf("Resolve(%s).Own = %q, want the gate's own: %v", tt.path, ws.Resolve(tt.path).Own, tt.own)
			}
		})
	}
}
