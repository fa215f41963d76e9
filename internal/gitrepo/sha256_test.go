package gitrepo

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestSHA256Repository: a repository with SHA-256 object names is named as
// unsupported, with the way to analyze it anyway, not reported as missing
// HEAD; from a linked worktree too, whose format is its common directory's.
func TestSHA256Repository(t *testing.T) {
	g := newTestRepo(t)
	g.dir = t.TempDir()
	g.git("init", "-q", "--object-format=sha256")
	g.write("f.txt", "1\n")
	g.commit("one")
	wt := filepath.Join(t.TempDir(), "wt")
	g.git("worktree", "add", "-q", "--detach", wt)
	tests := []struct {
		name, dir string
	}{
		{name: "work tree", dir: g.dir},
		{name: "subdirectory of .git", dir: filepath.Join(g.dir, ".git", "refs")},
		{name: "linked worktree", dir: wt},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Open(tt.dir)
			if err == nil {
				r.Close()
				t.Fatal("Open succeeded")
			}
			for _, want := range []string{"SHA-256", "--patch"} {
				if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), want) {
					t.Errorf("Open: %v, want ErrUnsupported naming %q", err, want)
				}
			}
		})
	}
}
