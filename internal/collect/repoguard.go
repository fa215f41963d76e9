package collect

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// RepoGuard keeps the repository files that make git run programs as they
// were before the code under test ran: .git/config (filters, fsmonitor,
// hooksPath, aliases), config.worktree, info/attributes and the hooks. The
// collectors' checkouts share the repository's git directory, so a test can
// write them, and a later git command, of the gate's or of a later step of
// the workflow, would run what it planted.
type RepoGuard struct {
	gitDir string
	files  map[string][]byte // relative path -> content; nil: absent
	// expected is what the files hold while the code runs, where it differs
	// from files: config without the credentials it hid.
	expected map[string][]byte
	// Hidden counts the credential lines taken out of .git/config while
	// the code under test runs (a token actions/checkout persisted).
	Hidden int
}

// guardedFiles are watched one by one; the hooks directory as a whole.
var guardedFiles = []string{"config", "config.worktree", filepath.Join("info", "attributes")}

// GuardRepo records the files of the common git directory of gitDir (a
// linked worktree's is its repository's).
func GuardRepo(gitDir string) (*RepoGuard, error) {
	common, err := commonGitDir(gitDir)
	if err != nil {
		return nil, fmt.Errorf("guard %s: %w", gitDir, err)
	}
	g := &RepoGuard{gitDir: common, files: map[string][]byte{}, expected: map[string][]byte{}}
	snap, err := g.read()
	if err != nil {
		return nil, err
	}
	g.files = snap
	// A token in the repository's config (actions/checkout's
	// http.<url>.extraheader, unless persist-credentials: false) is hidden
	// while the code under test runs: `git config --list` would show it.
	if cfg, ok := snap["config"]; ok {
		if stripped, n := withoutCredentials(cfg); n > 0 {
			if err := os.WriteFile(filepath.Join(common, "config"), stripped, 0o644); err != nil {
				return nil, fmt.Errorf("hide the credentials of %s: %w", filepath.Join(common, "config"), err)
			}
			g.expected["config"], g.Hidden = stripped, n
		}
	}
	return g, nil
}

// withoutCredentials drops the lines of a git config that carry a
// credential: http.*.extraheader (an Authorization header) and
// credential helpers' stored values.
func withoutCredentials(cfg []byte) ([]byte, int) {
	var out [][]byte
	n := 0
	for _, line := range bytes.SplitAfter(cfg, []byte("\n")) {
		key, _, _ := bytes.Cut(bytes.TrimSpace(line), []byte("="))
		k := strings.ToLower(string(bytes.TrimSpace(key)))
		if k == "extraheader" || k == "helper" && bytes.Contains(bytes.ToLower(line), []byte("token")) {
			n++
			continue
		}
		out = append(out, line)
	}
	return bytes.Join(out, nil), n
}

func (g *RepoGuard) read() (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, rel := range guardedFiles {
		data, err := os.ReadFile(filepath.Join(g.gitDir, rel))
		if err == nil {
			out[rel] = data
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("read %s: %w", filepath.Join(g.gitDir, rel), err)
		}
	}
	hooks := filepath.Join(g.gitDir, "hooks")
	err := filepath.WalkDir(hooks, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == hooks {
				return filepath.SkipAll
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(g.gitDir, p)
		if d.Type()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			out[rel] = []byte("link:" + target)
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[rel] = data
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", hooks, err)
	}
	return out, nil
}

// Dir is the git directory guarded.
func (g *RepoGuard) Dir() string { return g.gitDir }

// Check puts back every guarded file that changed since GuardRepo, keeping
// hidden credentials hidden (more of the code under test runs next), and
// returns the relative paths it put back (sorted; nil when none).
func (g *RepoGuard) Check() ([]string, error) { return g.restore(false) }

// Restore is Check, then puts hidden credentials back: the code under test
// is done.
func (g *RepoGuard) Restore() ([]string, error) { return g.restore(true) }

func (g *RepoGuard) restore(final bool) ([]string, error) {
	now, err := g.read()
	if err != nil {
		return nil, err
	}
	// target is what a file must hold after this call.
	target := func(rel string) ([]byte, bool) {
		if exp, hid := g.expected[rel]; hid && !final {
			return exp, true
		}
		old, ok := g.files[rel]
		return old, ok
	}
	var changed []string
	for rel, data := range now {
		want, ok := g.files[rel]
		if exp, hid := g.expected[rel]; hid {
			want = exp
		}
		tgt, tok := target(rel)
		if ok && bytes.Equal(want, data) {
			if tok && !bytes.Equal(tgt, data) {
				if err := os.Remove(filepath.Join(g.gitDir, rel)); err != nil {
					return changed, err
				}
				if err := g.put(rel, tgt); err != nil {
					return changed, err
				}
			}
			continue
		}
		changed = append(changed, rel)
		p := filepath.Join(g.gitDir, rel)
		if err := os.Remove(p); err != nil {
			return changed, fmt.Errorf("restore %s: %w", p, err)
		}
		if tok {
			if err := g.put(rel, tgt); err != nil {
				return changed, err
			}
		}
	}
	for rel := range g.files {
		if _, ok := now[rel]; !ok {
			changed = append(changed, rel)
			tgt, _ := target(rel)
			if err := g.put(rel, tgt); err != nil {
				return changed, err
			}
		}
	}
	if final {
		g.expected = map[string][]byte{}
	}
	sort.Strings(changed)
	return changed, nil
}

func (g *RepoGuard) put(rel string, data []byte) error {
	p := filepath.Join(g.gitDir, rel)
	if target, ok := bytes.CutPrefix(data, []byte("link:")); ok && filepath.Dir(rel) != "." && filepath.Base(filepath.Dir(rel)) == "hooks" {
		return os.Symlink(string(target), p)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("restore %s: %w", p, err)
	}
	mode := os.FileMode(0o644)
	if filepath.Base(filepath.Dir(rel)) == "hooks" {
		mode = 0o755
	}
	if err := os.WriteFile(p, data, mode); err != nil {
		return fmt.Errorf("restore %s: %w", p, err)
	}
	return nil
}
