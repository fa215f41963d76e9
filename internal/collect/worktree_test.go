package collect

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWorktreeOverlayAndRemove(t *testing.T) {
	dir, base := newRepo(t, map[string]string{"a.go": "package a // base\n", "a_test.go": "package a // base test\n", "old_test.go": "package a\n"})
	head := commitFiles(t, dir, map[string]string{"a.go": "package a // head\n", "a_test.go": "package a // head test\n", "old_test.go": ""}, "head")
	// The user's repository has a post-checkout hook that must not run.
	hook := filepath.Join(dir, ".git", "hooks", "post-checkout")
	hookRan := filepath.Join(t.TempDir(), "hook-ran")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\ntouch '"+hookRan+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	before := stateOf(t, dir)

	wt, err := AddWorktree(context.Background(), dir, head.String())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(hookRan); err == nil {
		t.Error("the repository's post-checkout hook ran")
	}
	repo := openRepo(t, dir)
	baseTest, err := repo.ReadFile(base, "a_test.go")
	if err != nil {
		t.Fatal(err)
	}
	oldTest, err := repo.ReadFile(base, "old_test.go")
	if err != nil {
		t.Fatal(err)
	}
	if err := wt.Overlay(map[string][]byte{"a_test.go": baseTest, "old_test.go": oldTest, "sub/dir/new.txt": []byte("n"), "gone.txt": nil}); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range []string{"a.go", "a_test.go", "old_test.go", "sub/dir/new.txt"} {
		b, err := os.ReadFile(filepath.Join(wt.Dir, f))
		if err != nil {
			t.Fatal(err)
		}
		got[f] = string(b)
	}
	want := map[string]string{"a.go": "package a // head\n", "a_test.go": "package a // base test\n", "old_test.go": "package a\n", "sub/dir/new.txt": "n"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("overlaid files (-want +got):\n%s", diff)
	}
	if err := wt.Overlay(map[string][]byte{"a.go": nil}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(wt.Dir, "a.go")); !os.IsNotExist(err) {
		t.Errorf("a.go not deleted: %v", err)
	}
	for _, bad := range []string{"../escape", "/etc/passwd", ".git/config", "", "a/../../x"} {
		if err := wt.Overlay(map[string][]byte{bad: []byte("x")}); err == nil {
			t.Errorf("Overlay(%q) succeeded", bad)
		}
	}
	// A directory made read-only by a test must not stop removal.
	ro := filepath.Join(wt.Dir, "ro")
	if err := os.MkdirAll(filepath.Join(ro, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(ro, 0o500); err != nil {
		t.Fatal(err)
	}

	if err := wt.Remove(); err != nil {
		t.Fatal(err)
	}
	if err := wt.Remove(); err != nil {
		t.Errorf("second Remove: %v", err)
	}
	if _, err := os.Stat(wt.Dir); !os.IsNotExist(err) {
		t.Errorf("worktree still there: %v", err)
	}
	if diff := cmp.Diff(before, stateOf(t, dir)); diff != "" {
		t.Errorf("user's checkout changed (-before +after):\n%s", diff)
	}
	if left := leftovers(t, tmp); len(left) != 0 {
		t.Errorf("left in TMPDIR: %v", left)
	}
}

func TestAddWorktreeErrors(t *testing.T) {
	dir, _ := newRepo(t, map[string]string{"a": "a\n"})
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	for _, commit := range []string{"0123456789012345678901234567890123456789", "--help", ""} {
		_, err := AddWorktree(context.Background(), dir, commit)
		if err == nil {
			t.Errorf("AddWorktree(%q) succeeded", commit)
		} else if !strings.Contains(err.Error(), "worktree") {
			t.Errorf("error %q does not say what failed", err)
		}
	}
	if left := leftovers(t, tmp); len(left) != 0 {
		t.Errorf("left in TMPDIR: %v", left)
	}
	if got := runGit(t, dir, "worktree", "list", "--porcelain"); strings.Count(got, "worktree ") != 1 {
		t.Errorf("worktrees left:\n%s", got)
	}
}

func TestRemoveAfterCancelledContext(t *testing.T) {
	dir, commit := newRepo(t, map[string]string{"a": "a\n"})
	ctx, cancel := context.WithCancel(context.Background())
	wt, err := AddWorktree(ctx, dir, commit.String())
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := wt.Remove(); err != nil {
		t.Fatal(err)
	}
	if got := runGit(t, dir, "worktree", "list", "--porcelain"); strings.Count(got, "worktree ") != 1 {
		t.Errorf("worktrees left:\n%s", got)
	}
}

func TestConcurrentWorktrees(t *testing.T) {
	dir, base := newRepo(t, map[string]string{"a": "base\n"})
	head := commitFiles(t, dir, map[string]string{"a": "head\n"}, "head")
	errs := make(chan error, 6)
	for i := 0; i < 6; i++ {
		commit, want := base, "base\n"
		if i%2 == 1 {
			commit, want = head, "head\n"
		}
		go func() {
			wt, err := AddWorktree(context.Background(), dir, commit.String())
			if err != nil {
				errs <- err
				return
			}
			b, err := os.ReadFile(filepath.Join(wt.Dir, "a"))
			if err == nil && string(b) != want {
				err = fmt.Errorf("worktree of %s holds %q", commit, b)
			}
			errs <- errors.Join(err, wt.Remove())
		}()
	}
	for i := 0; i < 6; i++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if got := runGit(t, dir, "worktree", "list", "--porcelain"); strings.Count(got, "worktree ") != 1 {
		t.Errorf("worktrees left:\n%s", got)
	}
}
