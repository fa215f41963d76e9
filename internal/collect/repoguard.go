package collect

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
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
	g := &RepoGuard{gitDir: common, files: map[string][]byte{}}
	snap, err := g.read()
	if err != nil {
		return nil, err
	}
	g.files = snap
	return g, nil
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

// Restore puts back every guarded file that changed since GuardRepo, removes
// the ones that appeared, and returns the relative paths it restored
// (sorted; nil when nothing changed).
func (g *RepoGuard) Restore() ([]string, error) {
	now, err := g.read()
	if err != nil {
		return nil, err
	}
	var changed []string
	for rel, data := range now {
		old, ok := g.files[rel]
		if ok && bytes.Equal(old, data) {
			continue
		}
		changed = append(changed, rel)
		p := filepath.Join(g.gitDir, rel)
		if err := os.Remove(p); err != nil {
			return changed, fmt.Errorf("restore %s: %w", p, err)
		}
		if ok {
			if err := g.put(rel, old); err != nil {
				return changed, err
			}
		}
	}
	for rel, old := range g.files {
		if _, ok := now[rel]; !ok {
			changed = append(changed, rel)
			if err := g.put(rel, old); err != nil {
				return changed, err
			}
		}
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
