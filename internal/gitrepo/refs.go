package gitrepo

import (
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
)

// ErrTagExists says a tag already names another commit.
var ErrTagExists = errors.New("tag exists")

// SetTag creates the lightweight tag name (without refs/tags/) at commit. A
// tag that already names that commit is left as it is; one that names another
// commit is an error wrapping ErrTagExists.
func (r *Repo) SetTag(name string, commit plumbing.Hash) error {
	ref := plumbing.NewTagReferenceName(name)
	r.mu.Lock()
	defer r.mu.Unlock()
	if old, err := r.st.Reference(ref); err == nil {
		if old.Hash() == commit {
			return nil
		}
		return fmt.Errorf("tag %s: %w at %s", name, ErrTagExists, old.Hash().String()[:7])
	}
	if err := r.st.SetReference(plumbing.NewHashReference(ref, commit)); err != nil {
		return fmt.Errorf("tag %s: %w", name, err)
	}
	return nil
}

// HeadBranch returns the branch HEAD is on (short name), or "" when HEAD is
// detached.
func (r *Repo) HeadBranch() (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ref, err := r.st.Reference(plumbing.HEAD)
	if err != nil {
		return "", err
	}
	if ref.Type() != plumbing.SymbolicReference {
		return "", nil
	}
	return ref.Target().Short(), nil
}

// BlobSize returns a blob's size without reading it.
func (r *Repo) BlobSize(h plumbing.Hash) (int64, error) { return r.blobSize(h) }
