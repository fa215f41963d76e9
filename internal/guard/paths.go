package guard

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scanners"
)

// Workspace is the repository a hook call happens in, and the directory the
// agent's paths are relative to.
type Workspace struct {
	// Root is the work tree's root; "" outside a repository.
	Root string
	// GitDir is the repository's git directory; with the common directory
	// of a linked worktree's, out of the agent's reach.
	GitDir string
	// Cwd is the payload's cwd: relative paths and shell commands start there.
	Cwd string
	// Config is .ralph-gate.yml from HEAD's tree (defaults when absent).
	Config *config.Config
	// Private is the directory of the key that seals the loop's files
	// (outside the repository); "" when unknown. An agent that reads the
	// key can forge the loop's state, so every tool call that names it is
	// refused.
	Private string

	realRoot, realGitDir, realPrivate string
	// Getenv reads the agent's environment (the hook runs with it), for the
	// variables a shell word may name ("$RALPH_GATE_CONFIG_DIR/*"); nil: none.
	Getenv func(string) string
	// clientFiles are the agent clients' files that decide their hooks and
	// permissions (absolute, and resolved).
	clientFiles, realClientFiles []string
	home                         string
}

// SetClientFiles records the agent clients' own files (agent.Client.Own):
// they are protected like the gate's configuration, and so is a directory
// that holds one (rm -r .claude), up to the user's home.
func (w *Workspace) SetClientFiles(files []string, home string) {
	w.home = filepath.Clean(home)
	for _, f := range files {
		f = filepath.Clean(f)
		w.clientFiles = append(w.clientFiles, f)
		w.realClientFiles = append(w.realClientFiles, resolveExisting(f))
	}
}

// clientOwn names the client file a path is or holds, or "".
func (w *Workspace) clientOwn(abs, real string) string {
	for i, f := range w.clientFiles {
		for _, p := range []string{abs, real} {
			switch {
			case p == f || p == w.realClientFiles[i]:
				return "the agent's hooks and permissions"
			case p != w.home && p != w.realRoot && p != w.Root && p != string(filepath.Separator) &&
				(within(p, f) || within(p, w.realClientFiles[i])):
				return "a directory holding the agent's hooks and permissions (" + f + ")"
			}
		}
	}
	return ""
}

// loopStateOwn is how messages name the loop's state.
const loopStateOwn = "the loop's state (.aiwg/ralph)"

// ReadDenied says why reading a path is refused ("" when it is not): the
// seal key's directory (the user's ralph-gate config directory) and the
// loop's state are out of an agent's reach, to read as much as to write.
func (w *Workspace) ReadDenied(t Target) string {
	if w.IsPrivate(t) {
		return privateOwn + " (" + w.Private + ")"
	}
	if t.Own == loopStateOwn {
		return loopStateOwn
	}
	return ""
}

// privateOwn names the seal key's directory in messages.
const privateOwn = "the key that seals the loop's state"

// SetPrivate records the seal key's directory (see Private).
func (w *Workspace) SetPrivate(dir string) {
	if dir == "" {
		return
	}
	w.Private = filepath.Clean(dir)
	w.realPrivate = resolveExisting(w.Private)
}

// IsPrivate reports whether a path, as written or resolved, lands in the
// seal key's directory.
func (w *Workspace) IsPrivate(t Target) bool {
	if w.Private == "" {
		return false
	}
	return within(w.Private, t.Abs) || within(w.realPrivate, t.Real) || within(w.realPrivate, t.Abs)
}

// NewWorkspace records root and git directory with their symbolic links
// resolved, so that paths can be compared after resolving theirs.
func NewWorkspace(root, gitDir, cwd string, cfg *config.Config) *Workspace {
	if cfg == nil {
		cfg = config.Default()
	}
	w := &Workspace{Root: root, GitDir: gitDir, Cwd: cwd, Config: cfg}
	if root != "" {
		w.realRoot = resolveExisting(root)
	}
	if gitDir != "" {
		// A linked worktree's own git directory lies inside the common one,
		// which holds what all worktrees share: hooks, config, refs.
		w.realGitDir = resolveExisting(state.CommonGitDir(gitDir))
	}
	return w
}

// Target is where a path an agent names lands.
type Target struct {
	// Abs is the path made absolute against the cwd; Real is Abs with every
	// existing symbolic link resolved.
	Abs, Real string
	// Rel is Real relative to the repository root, slash-separated; "" when the
	// path is outside the repository.
	Rel string
	// Own says which of the gate's own files the path is ("" for none).
	Own string
}

// Inside reports whether the path lands in the repository.
func (t Target) Inside() bool { return t.Rel != "" }

// Resolve places a path from a tool call or a command line. A leading ~ is
// the user's home, as the clients' file tools read it.
func (w *Workspace) Resolve(p string) Target {
	if w.home != "" && w.home != "." && (p == "~" || strings.HasPrefix(p, "~/")) {
		p = filepath.Join(w.home, p[1:])
	}
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(w.Cwd, abs)
	}
	abs = filepath.Clean(abs)
	t := Target{Abs: abs, Real: resolveExisting(abs)}
	if w.IsPrivate(t) {
		t.Own = privateOwn + " (" + w.Private + ")"
	}
	if w.Root == "" {
		if t.Own == "" {
			t.Own = w.clientOwn(abs, t.Real)
		}
		return t
	}
	if w.realGitDir != "" && within(w.realGitDir, t.Real) {
		t.Own = "git's own files (.git: hooks, config, refs)"
	}
	if rel, ok := relInside(w.realRoot, t.Real); ok {
		t.Rel = rel
		if t.Own == "" {
			t.Own = ownFile(rel)
		}
	}
	// The path as written counts too: a link inside .aiwg/ralph still leads
	// to loop state, wherever it points.
	for _, root := range []string{w.Root, w.realRoot} {
		if rel, ok := relInside(root, abs); ok && t.Own == "" {
			t.Own = ownFile(rel)
		}
	}
	if t.Own == "" {
		t.Own = w.clientOwn(abs, t.Real)
	}
	return t
}

// IsTest reports whether a repository path is a test file by the project's
// extractors, and is not excluded by the configuration.
func (w *Workspace) IsTest(rel string) bool {
	if rel == "" || w.Config.Ignored(rel) {
		return false
	}
	return isTestPath(rel)
}

func isTestPath(rel string) bool {
	ext := scanners.ForPath(rel)
	return ext != nil && ext.IsTestFile(rel)
}

// ownFile names the gate's own file a repository path is, or "".
func ownFile(rel string) string {
	l := strings.ToLower(rel)
	switch {
	case l == ".aiwg/ralph" || strings.HasPrefix(l, ".aiwg/ralph/") || l == ".aiwg":
		return loopStateOwn
	case l == strings.ToLower(config.FileName):
		return "the gate's configuration (" + config.FileName + ")"
	case l == "aiwg.yml":
		return "the loop's configuration (aiwg.yml)"
	case l == ".git" || strings.HasPrefix(l, ".git/"):
		return "git's own files (.git: hooks, config, refs)"
	}
	return ""
}

// relInside returns p relative to root (slash-separated) when p is inside it.
func relInside(root, p string) (string, bool) {
	if root == "" {
		return "", false
	}
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

func within(dir, p string) bool {
	if dir == p {
		return true
	}
	_, ok := relInside(dir, p)
	return ok
}

// resolveExisting resolves the symbolic links of the longest existing prefix
// of p and appends the rest: where a write to p would land.
func resolveExisting(p string) string {
	for depth := 0; depth < 64; depth++ {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return r
		}
		// A dangling link: follow it by hand.
		if fi, err := os.Lstat(p); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			if dest, err := os.Readlink(p); err == nil {
				if !filepath.IsAbs(dest) {
					dest = filepath.Join(filepath.Dir(p), dest)
				}
				p = filepath.Clean(dest)
				continue
			}
		}
		break
	}
	parent := filepath.Dir(p)
	if parent == p {
		return p
	}
	return filepath.Join(resolveExisting(parent), filepath.Base(p))
}
