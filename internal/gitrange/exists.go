package gitrange

import (
	"errors"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

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
