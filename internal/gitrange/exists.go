package gitrange

import (
	"errors"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/ralph-gate/ralph-gate/internal/analyze"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
)

// exists reports whether a path names a file or a directory of a
// commit's tree. A tree that cannot be read counts as holding it: a
// missing answer must not read as a test directory gone.
func (s *source) exists(commit plumbing.Hash, p string) bool {
	p = strings.Trim(path.Clean(p), "/")
	if p == "" || p == "." {
		return true
	}
	entries, err := s.repo.ListDir(commit, path.Dir(p))
	if err != nil {
		if errors.Is(err, gitrepo.ErrNotFetched) {
			s.fail(err)
			return true
		}
		return false // the parent directory is not there either
	}
	for _, e := range entries {
		if e.Path == p {
			return true
		}
	}
	return false
}

// readAt reads a file of a commit's tree; nil when it is not there or
// cannot be read.
func (s *source) readAt(commit plumbing.Hash, p string) []byte {
	b, err := s.repo.ReadFile(commit, p)
	if err != nil {
		if errors.Is(err, gitrepo.ErrNotFetched) {
			s.fail(err)
		}
		return nil
	}
	return b
}

// baseFiles returns the regular files under dir of a commit's tree whose
// paths want keeps, at most max of them (walking at most maxTreeDirs
// directories); ok is false when the tree holds more, or could not be read
// whole, so that the caller does not take a partial answer for the tree.
func (s *source) baseFiles(commit plumbing.Hash, dir string, want func(p string) bool, max int) (out []analyze.Source, ok bool) {
	dirs := []string{dir}
	for walked := 0; len(dirs) > 0; walked++ {
		if walked >= maxTreeDirs {
			return nil, false
		}
		d := dirs[len(dirs)-1]
		dirs = dirs[:len(dirs)-1]
		entries, err := s.repo.ListDir(commit, d)
		if err != nil {
			if errors.Is(err, gitrepo.ErrNotFetched) {
				s.fail(err)
			}
			return nil, false
		}
		for _, e := range entries {
			switch {
			case e.Mode == filemode.Dir:
				dirs = append(dirs, e.Path)
			case (e.Mode == filemode.Regular || e.Mode == filemode.Executable) && want(e.Path):
				if len(out) >= max {
					return nil, false
				}
				b, skip := s.blob(e.Hash)
				if skip != "" {
					return nil, false
				}
				out = append(out, analyze.Source{Path: e.Path, Key: e.Hash.String(), Data: b})
			}
		}
	}
	return out, true
}

// maxTreeDirs bounds the directories baseFiles walks.
const maxTreeDirs = 2000
