package collect

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/gitcmd"
)

// cleanupTimeout bounds the git commands that remove a worktree: they run
// with a fresh context, after the caller's may have been cancelled.
const cleanupTimeout = 2 * time.Minute

// Worktree is a temporary, detached checkout of one commit, made with
// `git worktree add`. Remove it when done; Remove is safe to call twice.
type Worktree struct {
	// Dir is the checkout's root directory.
	Dir string
	// Commit is the commit checked out, as given to AddWorktree.
	Commit string

	repoDir string
	root    string   // the temporary directory holding Dir
	lock    *os.File // held while Dir is the repository's stable path
	once    sync.Once
	err     error
}

// stableRoot returns the repository's stable checkout directory, locked,
// when no other checkout of this or another process holds it ("" when one
// does, or it cannot be made). A checkout at one path for every commit
// lets Go's build cache serve what an earlier checkout compiled (its keys
// hold the package's directory unless -trimpath, which changes the paths
// tests see), so measuring BASE, then HEAD, then the tamper check, in a
// run and from run to run, compiles only what changed.
func stableRoot(ctx context.Context, repoDir string) (string, *os.File) {
	abs, err := filepath.Abs(repoDir)
	if err != nil {
		return "", nil
	}
	sum := sha256.Sum256([]byte(abs))
	name := "ralph-gate-wt-" + hex.EncodeToString(sum[:6])
	lock, err := os.OpenFile(filepath.Join(os.TempDir(), "."+name+".lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return "", nil
	}
	if !tryLock(lock) {
		lock.Close()
		return "", nil
	}
	root := filepath.Join(os.TempDir(), name)
	// What a run that was killed left: its directory, git's record of it.
	if _, err := os.Lstat(root); err == nil {
		_ = removeAll(root)
		_, _ = git(ctx, repoDir, "worktree", "prune")
	}
	if err := os.Mkdir(root, 0o700); err != nil {
		lock.Close()
		return "", nil
	}
	return root, lock
}

// worktreeMu serializes `git worktree add` within the process.
var worktreeMu sync.Mutex

// AddWorktree checks commit out, detached, into a new temporary directory,
// with `git worktree add --detach`. The repository's hooks are disabled for the
// checkout (a post-checkout hook must not run on the user's behalf) and the
// user's working tree, index, HEAD, stash and branches are not changed: git
// records the worktree under <git-common-dir>/worktrees/, which Remove cleans.
func AddWorktree(ctx context.Context, repoDir, commit string) (*Worktree, error) {
	if strings.HasPrefix(commit, "-") || strings.TrimSpace(commit) == "" {
		return nil, fmt.Errorf("add worktree: bad commit %q", commit)
	}
	root, lock := stableRoot(ctx, repoDir)
	if root == "" {
		var err error
		root, err = os.MkdirTemp("", "ralph-gate-")
		if err != nil {
			return nil, fmt.Errorf("add worktree for %s: %w", commit, err)
		}
	}
	// The directory's base name becomes the worktree's name under
	// .git/worktrees; a unique one keeps concurrent runs apart.
	dir := filepath.Join(root, filepath.Base(root))
	w := &Worktree{Dir: dir, Commit: commit, repoDir: repoDir, root: root, lock: lock}
	// git reads every worktree's metadata while it adds one, and fails when
	// another is half-written: serialize adds within the process, and retry
	// once for a concurrent ralph-gate in another process.
	worktreeMu.Lock()
	add := append(noFilters(ctx, repoDir), "worktree", "add", "--detach", "--quiet", "--", dir, commit)
	_, err := git(ctx, repoDir, add...)
	if err != nil && ctx.Err() == nil {
		_ = os.RemoveAll(dir)
		_, _ = git(context.Background(), repoDir, "worktree", "prune")
		_, err = git(ctx, repoDir, add...)
	}
	worktreeMu.Unlock()
	if err != nil {
		rmErr := w.Remove()
		return nil, errors.Join(fmt.Errorf("add worktree for %s: %w", commit, err), rmErr)
	}
	return w, nil
}

// Overlay lays other versions of files over the checkout: each key is a
// slash path from the repository root, each value the file's content, and a
// nil value deletes the file. The tamper check uses it to put BASE's test
// files over HEAD's code.
func (w *Worktree) Overlay(files map[string][]byte) error {
	for name, content := range files {
		p, err := w.path(name)
		if err != nil {
			return err
		}
		if content == nil {
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("overlay: delete %s: %w", name, err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("overlay: %s: %w", name, err)
		}
		// A symbolic link in the checkout must not redirect the write.
		if fi, err := os.Lstat(p); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			if err := os.Remove(p); err != nil {
				return fmt.Errorf("overlay: replace link %s: %w", name, err)
			}
		}
		if err := os.WriteFile(p, content, 0o644); err != nil {
			return fmt.Errorf("overlay: write %s: %w", name, err)
		}
	}
	return w.hideFromGit(files)
}

// hideFromGit marks the overlaid files the commit tracks skip-worktree, so
// that git status and git diff in the checkout show the commit, clean: the
// code under test cannot tell an overlaid run (the witness, the tamper
// check) from the commit's own measurement by asking git what changed.
func (w *Worktree) hideFromGit(files map[string][]byte) error {
	if len(files) == 0 {
		return nil
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	ctx := context.Background()
	out, err := git(ctx, w.Dir, append([]string{"ls-files", "-z", "--"}, names...)...)
	if err != nil {
		return fmt.Errorf("overlay: list tracked files: %w", err)
	}
	var tracked []string
	for _, n := range strings.Split(string(out), "\x00") {
		if n != "" {
			tracked = append(tracked, n)
		}
	}
	if len(tracked) == 0 {
		return nil
	}
	if _, err := git(ctx, w.Dir, append([]string{"update-index", "--skip-worktree", "--"}, tracked...)...); err != nil {
		return fmt.Errorf("overlay: hide the overlaid files from git: %w", err)
	}
	return nil
}

// path maps a repository path to a file inside the checkout, refusing paths
// that would leave it.
func (w *Worktree) path(name string) (string, error) {
	clean := filepath.Clean(filepath.FromSlash(name))
	if name == "" || filepath.IsAbs(clean) || clean == "." || clean == ".." ||
		strings.HasPrefix(clean, ".."+string(filepath.Separator)) || filepath.VolumeName(clean) != "" {
		return "", fmt.Errorf("overlay: path %q is not inside the repository", name)
	}
	if first, _, _ := strings.Cut(filepath.ToSlash(clean), "/"); first == ".git" {
		return "", fmt.Errorf("overlay: path %q is inside .git", name)
	}
	// Intermediate directories that are symbolic links could lead outside.
	dir := w.Dir
	parts := strings.Split(filepath.ToSlash(filepath.Dir(clean)), "/")
	for _, part := range parts {
		if part == "." {
			continue
		}
		dir = filepath.Join(dir, part)
		if fi, err := os.Lstat(dir); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return "", fmt.Errorf("overlay: path %q goes through a symbolic link", name)
		}
	}
	return filepath.Join(w.Dir, clean), nil
}

// Remove deletes the checkout and git's record of it: `git worktree remove
// --force`, then the temporary directory, then `git worktree prune`. It runs
// with its own context, so it completes after the caller's was cancelled,
// and it is safe to call more than once (later calls return the first
// result).
func (w *Worktree) Remove() error {
	w.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), cleanupTimeout)
		defer cancel()
		var errs []error
		if _, err := os.Stat(w.Dir); err == nil {
			// Fails on worktrees holding submodules, or when git did not
			// finish adding it; RemoveAll and prune below cover both.
			_, _ = git(ctx, w.repoDir, "worktree", "remove", "--force", "--", w.Dir)
		}
		if err := removeAll(w.root); err != nil {
			errs = append(errs, fmt.Errorf("remove worktree %s: %w", w.Dir, err))
		}
		if _, err := git(ctx, w.repoDir, "worktree", "prune"); err != nil {
			errs = append(errs, fmt.Errorf("remove worktree %s: %w", w.Dir, err))
		}
		if w.lock != nil {
			// Unlinked before it is released: a run that opens the name
			// later makes a new lock, and no run waits on this one.
			_ = os.Remove(w.lock.Name())
			w.lock.Close()
		}
		w.err = errors.Join(errs...)
	})
	return w.err
}

// removeAll is os.RemoveAll that also removes read-only directories, which
// tests and module caches leave behind.
func removeAll(root string) error {
	if err := os.RemoveAll(root); err == nil {
		return nil
	}
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(p, 0o700)
		}
		return nil
	})
	return os.RemoveAll(root)
}

// noFilters neutralizes every filter driver the repository configures (a
// smudge, clean or process command runs on checkout): a test of HEAD's can
// configure one in .git/config, and name it in .git/info/attributes, to run
// a program in BASE's checkout or rewrite BASE's files.
func noFilters(ctx context.Context, repoDir string) []string {
	out, _ := git(ctx, repoDir, "config", "--get-regexp", `^filter\.`)
	var args []string
	seen := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		key, _, _ := strings.Cut(strings.TrimSpace(line), " ")
		if !strings.HasPrefix(key, "filter.") {
			continue
		}
		name := key[len("filter."):]
		if i := strings.LastIndexByte(name, '.'); i > 0 {
			name = name[:i]
		}
		if seen[name] {
			continue
		}
		seen[name] = true
		for _, k := range []string{"smudge", "clean", "process"} {
			args = append(args, "-c", "filter."+name+"."+k+"=")
		}
		args = append(args, "-c", "filter."+name+".required=false")
	}
	return args
}

// git runs a git command in dir through gitcmd (hardened, without the
// variables that point git at another repository) and returns its standard
// output; the error carries git's first line on standard error.
func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	return gitcmd.Run(ctx, dir, gitcmd.Options{}, args...)
}

// withoutRepoEnv drops the variables that point git at a repository: a
// pre-push hook runs with some set, and a collector that runs git (a test
// that makes a repository) must not be sent to the user's.
func withoutRepoEnv(env []string) []string { return gitcmd.WithoutRepoEnv(env) }

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
