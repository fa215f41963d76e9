package collect

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAddWorktreeStablePath: the checkouts of one repository take one path
// while none is held, so Go's build cache serves a later checkout what an
// earlier one compiled; a checkout made while another holds the path gets
// one of its own; nothing is left behind, not even the lock.
func TestAddWorktreeStablePath(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	repo, _ := newRepo(t, map[string]string{"a.txt": "a\n"})
	ctx := context.Background()
	first, err := AddWorktree(ctx, repo, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	held, err := AddWorktree(ctx, repo, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if first.Dir == held.Dir || !strings.Contains(filepath.Base(first.Dir), "ralph-gate-wt-") || strings.Contains(filepath.Base(held.Dir), "ralph-gate-wt-") {
		t.Errorf("first %s, second while held %s: want the stable path, then one of its own", first.Dir, held.Dir)
	}
	stable := first.Dir
	for _, w := range []*Worktree{first, held} {
		if err := w.Remove(); err != nil {
			t.Fatal(err)
		}
	}
	again, err := AddWorktree(ctx, repo, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if again.Dir != stable {
		t.Errorf("after release: %s, want %s again", again.Dir, stable)
	}
	if err := again.Remove(); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(os.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("left in TMPDIR: %s", e.Name())
	}
}

// TestAddWorktreeStalePath: a stable path a killed run left (its
// directory, git's record of it) is cleaned up and used.
func TestAddWorktreeStalePath(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	repo, _ := newRepo(t, map[string]string{"a.txt": "a\n"})
	ctx := context.Background()
	w, err := AddWorktree(ctx, repo, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	// Killed: the lock goes with the process, the checkout stays.
	w.lock.Close()
	again, err := AddWorktree(ctx, repo, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	defer again.Remove()
	if again.Dir != w.Dir {
		t.Errorf("stale path not reused: %s, want %s", again.Dir, w.Dir)
	}
	if _, err := os.Stat(filepath.Join(again.Dir, ".git")); err != nil {
		t.Errorf("not a checkout: %v", err)
	}
}
