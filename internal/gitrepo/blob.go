package gitrepo

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// MaxBlobSize is the largest blob Blob reads. Source and test files are far
// smaller; anything larger is generated or data, and reading it would cost
// memory for nothing.
const MaxBlobSize = 4 << 20

// binarySniffLen is how much of a file git inspects for a NUL byte.
const binarySniffLen = 8000

// IsBinary reports whether content is binary by git's rule: a NUL byte in the
// first 8000 bytes.
func IsBinary(b []byte) bool {
	if len(b) > binarySniffLen {
		b = b[:binarySniffLen]
	}
	return bytes.IndexByte(b, 0) >= 0
}

// Blob reads a blob. A blob larger than MaxBlobSize is refused with an error
// wrapping ErrTooLarge, checked from the object header before its content is
// inflated. The content may be shared with other callers and a cache: it must
// not be modified.
func (r *Repo) Blob(h plumbing.Hash) ([]byte, error) {
	b, err, ok := r.blobShared(h)
	if !ok {
		err = r.read(h, func() (err error) {
			b, err = r.objs.blob(h, MaxBlobSize)
			return err
		})
	}
	if errors.Is(err, ErrTooLarge) {
		return nil, fmt.Errorf("read blob %s: %w (limit %d)", short(h), err, MaxBlobSize)
	}
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", short(h), err)
	}
	return b, nil
}

// blobShared reads a blob from a pack already mapped, under the read lock,
// so that blobs are inflated on every core (a range reads its net change's
// blobs from several goroutines). ok is false when the read needs the lock:
// the packs are not indexed or mapped yet, or the blob is elsewhere or does
// not read (the locked path tells why).
func (r *Repo) blobShared(h plumbing.Hash) (b []byte, err error, ok bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	b, err = r.objs.blobMapped(h, MaxBlobSize)
	switch {
	case err == nil:
		return b, nil, true
	case errors.Is(err, ErrTooLarge):
		return nil, err, true
	}
	return nil, nil, false
}

// blobSize reads a blob's size from its header.
func (r *Repo) blobSize(h plumbing.Hash) (int64, error) {
	var size int64
	err := r.read(h, func() (err error) {
		size, err = r.objs.EncodedObjectSize(h)
		return err
	})
	return size, err
}

// ReadFile reads the file at path (slash-separated, from the repository root)
// in a commit's tree. A path that is absent, a directory or a submodule gives
// an error wrapping ErrNotFound.
func (r *Repo) ReadFile(commit plumbing.Hash, name string) ([]byte, error) {
	dir, base := path.Split(cleanPath(name))
	entries, err := r.dirEntries(commit, dir)
	if err != nil {
		return nil, fmt.Errorf("read %s at %s: %w", name, short(commit), err)
	}
	for _, e := range entries {
		if e.Name != base {
			continue
		}
		if e.Mode == filemode.Dir || e.Mode == filemode.Submodule {
			return nil, fmt.Errorf("read %s at %s: not a file: %w", name, short(commit), ErrNotFound)
		}
		b, err := r.Blob(e.Hash)
		if err != nil {
			return nil, fmt.Errorf("read %s at %s: %w", name, short(commit), err)
		}
		return b, nil
	}
	return nil, fmt.Errorf("read %s at %s: %w", name, short(commit), ErrNotFound)
}

// ListDir lists the entries directly inside dir ("" or "." for the root) in a
// commit's tree, with paths from the repository root, in tree order. A
// missing directory gives an error wrapping ErrNotFound.
func (r *Repo) ListDir(commit plumbing.Hash, dir string) ([]Entry, error) {
	dir = cleanPath(dir)
	entries, err := r.dirEntries(commit, dir)
	if err != nil {
		return nil, fmt.Errorf("list %s at %s: %w", orRoot(dir), short(commit), err)
	}
	out := make([]Entry, 0, len(entries))
	for _, e := range entries {
		out = append(out, Entry{Path: joinPath(dir, e.Name), Hash: e.Hash, Mode: e.Mode})
	}
	return out, nil
}

// dirEntries walks a commit's tree down to dir.
func (r *Repo) dirEntries(commit plumbing.Hash, dir string) ([]object.TreeEntry, error) {
	c, err := r.loadCommit(commit)
	if err != nil {
		return nil, err
	}
	entries, err := r.loadTree(c.Tree)
	if err != nil {
		return nil, err
	}
	dir = strings.Trim(dir, "/")
	if dir == "" || dir == "." {
		return entries, nil
	}
	for _, part := range strings.Split(dir, "/") {
		var next *object.TreeEntry
		for i := range entries {
			if entries[i].Name == part && entries[i].Mode == filemode.Dir {
				next = &entries[i]
				break
			}
		}
		if next == nil {
			return nil, fmt.Errorf("directory %s: %w", dir, ErrNotFound)
		}
		if entries, err = r.loadTree(next.Hash); err != nil {
			return nil, err
		}
	}
	return entries, nil
}

// cleanPath normalizes a slash path from the root: "./a//b/" is "a/b", and
// "." or "/" is "".
func cleanPath(p string) string {
	p = path.Clean("/" + p)
	return strings.TrimPrefix(p, "/")
}

func joinPath(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

func orRoot(dir string) string {
	if dir == "" {
		return "."
	}
	return dir
}
