package gitrepo

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/objfile"
)

// Loose objects are read here rather than through go-git's storage, which
// only knows the repository's own objects directory: the same reader serves
// the alternates, and a miss costs one failed open per object directory
// instead of go-git loading its in-memory index of every pack.

// maxEagerLoose is the largest loose object read whole when it is found;
// a larger one is read when its content is asked for, so that a blob past
// MaxBlobSize is refused from its header.
const maxEagerLoose = MaxBlobSize

// loosePath is where an object sits in an objects directory.
func loosePath(dir string, h plumbing.Hash) string {
	s := h.String()
	return filepath.Join(dir, s[:2], s[2:])
}

// openLoose opens a loose object and reads its header; the reader is
// positioned at the content. plumbing.ErrObjectNotFound when it is absent.
func openLoose(dir string, h plumbing.Hash) (*os.File, *objfile.Reader, plumbing.ObjectType, int64, error) {
	f, err := os.Open(loosePath(dir, h))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, plumbing.InvalidObject, 0, plumbing.ErrObjectNotFound
	}
	if err != nil {
		return nil, nil, plumbing.InvalidObject, 0, err
	}
	zr, err := objfile.NewReader(f)
	if err != nil {
		_ = f.Close()
		return nil, nil, plumbing.InvalidObject, 0, fmt.Errorf("loose object %s: %w", short(h), err)
	}
	t, size, err := zr.Header()
	if err != nil {
		_ = zr.Close()
		_ = f.Close()
		return nil, nil, plumbing.InvalidObject, 0, fmt.Errorf("loose object %s: %w", short(h), err)
	}
	if size < 0 {
		_ = zr.Close()
		_ = f.Close()
		return nil, nil, plumbing.InvalidObject, 0, fmt.Errorf("loose object %s: negative size %d", short(h), size)
	}
	return f, zr, t, size, nil
}

// readLoose reads a loose object from one objects directory: whole when it
// is at most maxEagerLoose bytes, else as a handle that reads it on demand.
func readLoose(dir string, h plumbing.Hash) (plumbing.EncodedObject, error) {
	f, zr, t, size, err := openLoose(dir, h)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	defer zr.Close()
	o := &looseObject{dir: dir, hash: h, typ: t, size: size}
	if size > maxEagerLoose {
		return o, nil
	}
	o.data = make([]byte, size)
	if _, err := io.ReadFull(zr, o.data); err != nil {
		return nil, fmt.Errorf("loose object %s: %w", short(h), err)
	}
	var extra [1]byte
	if n, _ := zr.Read(extra[:]); n > 0 {
		return nil, fmt.Errorf("loose object %s: content longer than its header's %d bytes", short(h), size)
	}
	return o, nil
}

// looseSize reads a loose object's size from its header.
func looseSize(dir string, h plumbing.Hash) (int64, error) {
	f, zr, _, size, err := openLoose(dir, h)
	if err != nil {
		return 0, err
	}
	_ = zr.Close()
	_ = f.Close()
	return size, nil
}

// hasLoose reports whether an objects directory holds h loose.
func hasLoose(dir string, h plumbing.Hash) bool {
	_, err := os.Stat(loosePath(dir, h))
	return err == nil
}

// looseWithPrefix appends the loose objects of dir whose names start with
// prefix (at least one byte: one fan-out directory is listed).
func looseWithPrefix(dir string, prefix []byte, out []plumbing.Hash) ([]plumbing.Hash, error) {
	if len(prefix) == 0 {
		return out, nil
	}
	p := hex.EncodeToString(prefix)
	ents, err := os.ReadDir(filepath.Join(dir, p[:2]))
	if errors.Is(err, os.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return out, err
	}
	for _, e := range ents {
		name := e.Name()
		if len(name) != hexSize-2 || !strings.HasPrefix(name, p[2:]) || !isHex(name) {
			continue
		}
		out = append(out, plumbing.NewHash(p[:2]+name))
	}
	return out, nil
}

// looseObject is a loose object read by readLoose. It is read-only.
type looseObject struct {
	dir  string
	hash plumbing.Hash
	typ  plumbing.ObjectType
	size int64
	data []byte // nil for an object read on demand
}

var _ plumbing.EncodedObject = (*looseObject)(nil)

func (o *looseObject) Hash() plumbing.Hash           { return o.hash }
func (o *looseObject) Type() plumbing.ObjectType     { return o.typ }
func (o *looseObject) SetType(t plumbing.ObjectType) { o.typ = t }
func (o *looseObject) Size() int64                   { return o.size }
func (o *looseObject) SetSize(n int64)               { o.size = n }

// Reader returns the content.
func (o *looseObject) Reader() (io.ReadCloser, error) {
	if o.data != nil || o.size == 0 {
		return io.NopCloser(bytes.NewReader(o.data)), nil
	}
	f, zr, _, _, err := openLoose(o.dir, o.hash)
	if err != nil {
		return nil, err
	}
	return &looseReader{Reader: zr, zr: zr, f: f}, nil
}

// Writer fails: objects are written through go-git's storage.
func (o *looseObject) Writer() (io.WriteCloser, error) {
	return nil, errors.New("loose object opened for reading")
}

type looseReader struct {
	io.Reader
	zr *objfile.Reader
	f  *os.File
}

func (r *looseReader) Close() error {
	err := r.zr.Close()
	if e := r.f.Close(); err == nil {
		err = e
	}
	return err
}
