package gitrepo

import (
	"cmp"
	"errors"
	"fmt"
	"github.com/ralph-gate/ralph-gate/internal/errkind"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// ObjectCacheSize bounds go-git's cache of decoded objects and delta bases.
// go-git's default is 96 MiB; the trees and commits of a range, plus the delta
// bases of the blobs read, fit in far less, and the whole process must stay
// under 200 MB on large repositories.
const ObjectCacheSize = 16 * cache.MiByte

// AsInput gives the errors a user can fix (not a repository, an
// unsupported one, an unknown, missing or unfetched revision, a base that
// is not an ancestor, a shallow history) the kind errkind.Input, so
// every command exits 2 for them; other errors are returned as they are.
func AsInput(err error) error {
	var unknown *UnknownRevisionError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrNotRepository), errors.Is(err, ErrUnsupported), errors.As(err, &unknown),
		errors.Is(err, ErrNotAncestor), errors.Is(err, ErrShallow),
		errors.Is(err, ErrNotFound), errors.Is(err, ErrNotFetched):
		return &errkind.Error{K: errkind.Input, Err: err}
	}
	return err
}

// Errors callers test with errors.Is.
var (
	// ErrNotRepository: no repository at or above the directory given to Open.
	ErrNotRepository = errors.New("not a git repository")
	// ErrShallow: the history needed is missing from a shallow clone. Its text
	// is the advice the user needs.
	ErrShallow = errors.New("fetch more history, e.g. actions/checkout fetch-depth: 0")
	// ErrNotAncestor: Range's base is not reachable from its head.
	ErrNotAncestor = errors.New("not an ancestor")
	// ErrNoMergeBase: two commits share no history.
	ErrNoMergeBase = errors.New("no merge base")
	// ErrAmbiguous: a short SHA matches more than one commit.
	ErrAmbiguous = errors.New("ambiguous short SHA")
	// ErrNotFound: a path is absent from a commit's tree.
	ErrNotFound = errors.New("not found")
	// ErrTooLarge: a blob is larger than MaxBlobSize.
	ErrTooLarge = errors.New("blob too large")
)

// Repo is an open repository. Open it once and reuse it: opening loads the
// pack indexes. A Repo is safe for concurrent use; object reads are serialized
// because go-git's pack readers are not.
type Repo struct {
	root    string
	gitDir  string
	st      *filesystem.Storage
	objs    *packStore // object reads: st's packs through a faster index
	shallow map[plumbing.Hash]bool
	stores  objectStores // the object directories, alternates included
	packs   string       // the pack files indexed, see packsChanged

	configFile string // the repository's config (its common dir's)
	// The promisor remotes of a partial clone, read once (see partial).
	promisorsRead bool
	promisors     []string
	promisorsErr  error

	// mu guards st's object reads; blobs in mapped packs are read under
	// its read lock (see Blob), everything else under the lock.
	mu sync.RWMutex
}

// Open finds the repository that contains dir: dir or its nearest parent with
// a .git directory, a .git file (a linked worktree or a submodule), or dir or
// a parent that is itself a git directory (a bare repository). GIT_DIR is not
// consulted. The error wraps ErrNotRepository when none is found.
func Open(dir string) (*Repo, error) {
	root, gitDir, err := Discover(dir)
	if err != nil {
		return nil, err
	}
	var fs billy.Filesystem = osfs.New(gitDir)
	objectsDir := filepath.Join(gitDir, "objects")
	common, err := commonDir(gitDir)
	if err != nil {
		return nil, fmt.Errorf("open repository %s: %w", gitDir, err)
	}
	if format := objectFormat(cmp.Or(common, gitDir)); format != "" && format != "sha1" {
		// go-git v5 names objects with SHA-1 only, and every layer above
		// holds 20-byte names: the one way ralph-gate reads such a
		// repository is the diff git makes of it.
		name := format
		if format == "sha256" {
			name = "SHA-256"
		}
		return nil, fmt.Errorf("%w: %s uses %s object names (extensions.objectformat), and ralph-gate reads SHA-1 repositories only; analyze the diff instead: git diff BASE HEAD | ralph-gate analyze --patch -",
			ErrUnsupported, cmp.Or(root, gitDir), name)
	}
	if common != "" {
		fs = dotgit.NewRepositoryFilesystem(fs, osfs.New(common))
		objectsDir = filepath.Join(common, "objects")
	}
	objCache := cache.NewObjectLRU(ObjectCacheSize)
	st := filesystem.NewStorageWithOptions(fs, objCache, filesystem.Options{
		KeepDescriptors:      true,
		LargeObjectThreshold: MaxBlobSize,
	})
	if _, err := st.Reference(plumbing.HEAD); err != nil {
		_ = st.Close()
		return nil, fmt.Errorf("%w: %s: read HEAD: %v", ErrNotRepository, dir, err)
	}
	shallow, err := st.Shallow()
	if err != nil {
		_ = st.Close()
		return nil, fmt.Errorf("open repository %s: read shallow list: %w", gitDir, err)
	}
	stores, err := findObjectStores(objectsDir)
	if err != nil {
		_ = st.Close()
		return nil, fmt.Errorf("open repository %s: %w", gitDir, err)
	}
	r := &Repo{root: root, gitDir: gitDir, st: st, shallow: map[plumbing.Hash]bool{},
		stores: stores, objs: newPackStore(stores.dirs, st, objCache),
		configFile: filepath.Join(cmp.Or(common, gitDir), "config")}
	for _, h := range shallow {
		r.shallow[h] = true
	}
	r.packs = r.objs.packNames()
	return r, nil
}

// Discover finds the repository that contains dir as Open does, without
// opening it: the work tree's root ("" for a bare repository) and the git
// directory. It serves callers that need the layout alone, of a repository
// Open refuses (ErrUnsupported) too. The error wraps ErrNotRepository when
// none is found.
func Discover(dir string) (root, gitDir string, err error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", "", fmt.Errorf("open repository %s: %w", dir, err)
	}
	if fi, err := os.Stat(abs); err != nil {
		return "", "", fmt.Errorf("%w: %s: %v", ErrNotRepository, dir, errors.Unwrap(err))
	} else if !fi.IsDir() {
		abs = filepath.Dir(abs)
	}
	root, gitDir, err = discover(abs)
	if err != nil {
		return "", "", err
	}
	if gitDir == "" {
		return "", "", fmt.Errorf("%w: %s", ErrNotRepository, dir)
	}
	return root, gitDir, nil
}

// discover walks up from dir. It returns the work tree root ("" for a bare
// repository) and the git directory, or two empty strings.
func discover(dir string) (root, gitDir string, err error) {
	for {
		dotGit := filepath.Join(dir, ".git")
		fi, err := os.Stat(dotGit)
		switch {
		case err == nil && fi.IsDir() && isGitDir(dotGit):
			return dir, dotGit, nil
		case err == nil && fi.Mode().IsRegular():
			g, err := readGitFile(dotGit)
			if err != nil {
				return "", "", err
			}
			return dir, g, nil
		case err != nil && !errors.Is(err, os.ErrNotExist):
			return "", "", fmt.Errorf("open repository %s: %w", dir, err)
		}
		if isGitDir(dir) {
			if filepath.Base(dir) == ".git" {
				// Inside a work tree's .git (a hook's directory, say).
				return filepath.Dir(dir), dir, nil
			}
			return "", dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", "", nil
		}
		dir = parent
	}
}

// isGitDir reports whether dir looks like a git directory, by git's own test:
// a HEAD file, and objects and refs directories (here or in its common dir).
func isGitDir(dir string) bool {
	if fi, err := os.Stat(filepath.Join(dir, "HEAD")); err != nil || fi.IsDir() {
		return false
	}
	base := dir
	if common, err := commonDir(dir); err == nil && common != "" {
		base = common
	}
	for _, sub := range []string{"objects", "refs"} {
		if fi, err := os.Stat(filepath.Join(base, sub)); err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}

// readGitFile reads a .git file ("gitdir: PATH") as linked worktrees and
// submodules write it.
func readGitFile(name string) (string, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", name, err)
	}
	line, _, _ := strings.Cut(string(b), "\n")
	target, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	target = strings.TrimSpace(target)
	if !ok || target == "" {
		return "", fmt.Errorf("read %s: no \"gitdir:\" line", name)
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(name), target)
	}
	if !isGitDir(target) {
		return "", fmt.Errorf("%w: %s points to %s", ErrNotRepository, name, target)
	}
	return filepath.Clean(target), nil
}

// commonDir returns the directory named by gitDir/commondir (a linked
// worktree's shared repository), or "" when there is none.
func commonDir(gitDir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read commondir: %w", err)
	}
	p := strings.TrimSpace(string(b))
	if p == "" {
		return "", nil
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(gitDir, p)
	}
	return filepath.Clean(p), nil
}

// Root returns the work tree's root directory, or "" for a bare repository.
func (r *Repo) Root() string { return r.root }

// GitDir returns the git directory: .git, a linked worktree's private
// directory under .git/worktrees, or the bare repository itself.
func (r *Repo) GitDir() string { return r.gitDir }

// IsShallow reports whether the repository is a shallow clone.
func (r *Repo) IsShallow() bool { return len(r.shallow) > 0 }

// Close releases the pack files the Repo keeps open.
func (r *Repo) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	err := r.objs.close()
	if e := r.st.Close(); e != nil {
		err = e
	}
	if err != nil {
		return fmt.Errorf("close repository %s: %w", r.gitDir, err)
	}
	return nil
}

// ErrUnsupported is a repository ralph-gate cannot read.
var ErrUnsupported = errors.New("unsupported repository")

// objectFormat is the repository's extensions.objectformat ("" when unset).
func objectFormat(gitDir string) string {
	data, err := os.ReadFile(filepath.Join(gitDir, "config"))
	if err != nil {
		return ""
	}
	section := ""
	for _, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			section = strings.ToLower(strings.Trim(t, "[] \t"))
			continue
		}
		if section != "extensions" {
			continue
		}
		k, v, ok := strings.Cut(t, "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), "objectformat") {
			return strings.ToLower(strings.Trim(strings.TrimSpace(v), `"`))
		}
	}
	return ""
}
