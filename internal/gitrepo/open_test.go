package gitrepo

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestOpen(t *testing.T) {
	g := newTestRepo(t)
	g.write("a/b/c.txt", "c\n")
	first := g.commit("first")
	wt := filepath.Join(t.TempDir(), "wt")
	g.git("worktree", "add", "-q", "-b", "side", wt)
	wtRepo := g.at(wt)
	wtRepo.write("side.txt", "side\n")
	side := wtRepo.commit("side work")
	bare := filepath.Join(t.TempDir(), "bare.git")
	g.gitIn(t.TempDir(), "", "clone", "-q", "--bare", g.dir, bare)

	tests := []struct {
		name       string
		dir        string
		wantRoot   string
		wantGitDir string
		wantHead   string
	}{
		{name: "work tree root", dir: g.dir, wantRoot: g.dir, wantGitDir: filepath.Join(g.dir, ".git"), wantHead: first.String()},
		{name: "subdirectory", dir: filepath.Join(g.dir, "a", "b"), wantRoot: g.dir, wantGitDir: filepath.Join(g.dir, ".git"), wantHead: first.String()},
		{name: "file inside", dir: filepath.Join(g.dir, "a", "b", "c.txt"), wantRoot: g.dir, wantGitDir: filepath.Join(g.dir, ".git"), wantHead: first.String()},
		{name: "inside .git", dir: filepath.Join(g.dir, ".git", "refs"), wantRoot: g.dir, wantGitDir: filepath.Join(g.dir, ".git"), wantHead: first.String()},
		{name: "linked worktree", dir: wt, wantRoot: wt, wantGitDir: filepath.Join(g.dir, ".git", "worktrees", "wt"), wantHead: side.String()},
		{name: "bare", dir: bare, wantRoot: "", wantGitDir: bare, wantHead: first.String()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Open(tt.dir)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			defer r.Close()
			head, err := r.Resolve("HEAD")
			if err != nil {
				t.Fatalf("Resolve(HEAD): %v", err)
			}
			got := []string{r.Root(), r.GitDir(), head.String()}
			want := []string{tt.wantRoot, tt.wantGitDir, tt.wantHead}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("root, gitdir, HEAD (-want +got):\n%s", diff)
			}
		})
	}
}

func TestOpenLinkedWorktreeSharesRefs(t *testing.T) {
	g := newTestRepo(t)
	g.write("f", "1\n")
	main := g.commit("on main")
	wt := filepath.Join(t.TempDir(), "wt")
	g.git("worktree", "add", "-q", "--detach", wt)
	r := g.at(wt).open()
	got, err := r.Resolve("main")
	if err != nil {
		t.Fatalf("Resolve(main) in worktree: %v", err)
	}
	if got != main {
		t.Errorf("Resolve(main) = %s, want %s", got, main)
	}
}

func TestOpenNotARepository(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		dir  string
	}{
		{name: "empty directory", dir: dir},
		{name: "missing directory", dir: filepath.Join(dir, "nope")},
		{name: "broken .git file", dir: brokenGitFile(t)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Open(tt.dir)
			if err == nil {
				r.Close()
				t.Fatalf("Open(%s) succeeded", tt.dir)
			}
			if !errors.Is(err, ErrNotRepository) {
				t.Errorf("error %v does not wrap ErrNotRepository", err)
			}
			if tt.name == "empty directory" {
				if want := "not a git repository: " + tt.dir; err.Error() != want {
					t.Errorf("error = %q, want %q", err, want)
				}
			}
			if !strings.Contains(err.Error(), filepath.Base(tt.dir)) {
				t.Errorf("error %q does not name the directory", err)
			}
		})
	}
}

func brokenGitFile(t *testing.T) string {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".git"), []byte("gitdir: /no/such/dir\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}
