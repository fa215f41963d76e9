package gitrepo

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// packStore reads objects from the pack files of the repository's object
// directories (its own and its alternates) through packIndex, and loose
// objects from the same directories; go-git's storage reads everything only
// when an index cannot be parsed here, and takes writes. It is not safe for
// concurrent use; Repo serializes reads.
type packStore struct {
	dirs     []string // object directories, the repository's own first
	fallback *filesystem.Storage
	cache    cache.Object
	resolved *resolvedCache // blobs and delta bases read from mapped packs

	loaded   bool
	off      bool // an index this reader cannot parse: go-git reads everything
	packs    []*storedPack
	promisor bool // a pack came from a promisor remote: a partial clone

	// reads counts blobs read from mapped packs: every dropEvery of them,
	// the pages read so far leave the resident set (see dropPages).
	reads atomic.Int64
}

// dropEvery is how many blob reads go between two dropPages of a pack: 32
// keeps prometheus's last 200 commits 2 MB lower than 128, in the same time.
const dropEvery = 32

type storedPack struct {
	dir  string // the pack directory
	base string // "pack-<hash>", the file names without extension
	idx  *packIndex
	file billy.File
	pf   *packfile.Packfile

	raw      []byte // the pack mapped, for readPacked; nil until used
	rawUnmap func() error
	rawErr   error // mapping failed: go-git reads this pack
}

// resolvedCacheSize bounds the blobs and delta bases kept by packStore. A
// range reads a file's version as the new side of one commit and the old
// side of the next that changes it: over prometheus's last 200 commits 8
// MiB inflated 34 MB for 717 blobs, 16 MiB 24 MB (0.64 s instead of 0.67
// s, 97 MB peak RSS instead of 94), 32 MiB 18 MB but past 100 MB of RSS.
const resolvedCacheSize = 16 << 20

var _ storer.EncodedObjectStorer = (*packStore)(nil)

func newPackStore(objectDirs []string, fallback *filesystem.Storage, c cache.Object) *packStore {
	return &packStore{dirs: objectDirs, fallback: fallback, cache: c,
		resolved: newResolvedCache(resolvedCacheSize)}
}

// packFile is a pack found in a pack directory.
type packFile struct {
	dir, base string
	local     bool
	mtime     int64
}

// listPacks finds the pack files of every object directory, in the order
// git searches them: the repository's own before its alternates, newest
// first within each. promisor reports a .promisor file beside a pack.
func (s *packStore) listPacks() (list []packFile, promisor bool) {
	for i, objects := range s.dirs {
		dir := filepath.Join(objects, "pack")
		ents, err := os.ReadDir(dir)
		if err != nil {
			continue // no pack directory: every object is loose
		}
		var here []packFile
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".promisor") {
				promisor = true
			}
			base, ok := strings.CutSuffix(e.Name(), ".idx")
			if !ok || !strings.HasPrefix(base, "pack-") {
				continue
			}
			fi, err := os.Stat(filepath.Join(dir, base+".pack"))
			if err != nil {
				continue // an index without its pack, as go-git skips it too
			}
			here = append(here, packFile{dir: dir, base: base, local: i == 0, mtime: fi.ModTime().UnixNano()})
		}
		sort.SliceStable(here, func(i, j int) bool { return here[i].mtime > here[j].mtime })
		list = append(list, here...)
	}
	return list, promisor
}

// packNames names the pack files present, as one comparable string.
func (s *packStore) packNames() string {
	list, _ := s.listPacks()
	var b strings.Builder
	for _, p := range list {
		b.WriteString(filepath.Join(p.dir, p.base))
		b.WriteByte(',')
	}
	return b.String()
}

// load indexes the pack files present.
func (s *packStore) load() {
	if s.loaded {
		return
	}
	s.loaded = true
	var list []packFile
	list, s.promisor = s.listPacks()
	for _, f := range list {
		idx, err := readPackIndex(filepath.Join(f.dir, f.base+".idx"), filepath.Join(f.dir, f.base+".rev"))
		if err != nil {
			s.close()
			s.off = true
			return
		}
		s.packs = append(s.packs, &storedPack{dir: f.dir, base: f.base, idx: idx})
	}
}

// reset forgets the packs indexed, so the next read lists them again.
func (s *packStore) reset() {
	s.close()
	s.loaded, s.off = false, false
	s.resolved = newResolvedCache(resolvedCacheSize)
}

func (s *packStore) close() error {
	var first error
	for _, p := range s.packs {
		if p.file != nil {
			if err := p.file.Close(); err != nil && first == nil {
				first = err
			}
		}
		if p.rawUnmap != nil {
			if err := p.rawUnmap(); err != nil && first == nil {
				first = err
			}
			p.raw, p.rawUnmap = nil, nil
		}
		if err := p.idx.close(); err != nil && first == nil {
			first = err
		}
	}
	s.packs = nil
	return first
}

// find finds h in the packs.
func (s *packStore) find(h plumbing.Hash) (*storedPack, int64, error) {
	s.load()
	if s.off {
		return nil, 0, plumbing.ErrObjectNotFound
	}
	for _, p := range s.packs {
		i, ok := p.idx.find(h)
		if !ok {
			continue
		}
		off, err := p.idx.offset(i)
		if err != nil {
			return nil, 0, err
		}
		return p, off, nil
	}
	return nil, 0, plumbing.ErrObjectNotFound
}

// blob reads a blob, refusing one larger than limit (ErrTooLarge) before it
// is inflated: from the mapped pack when it is there, else through go-git.
// The content may be shared and must not be modified.
func (s *packStore) blob(h plumbing.Hash, limit int64) ([]byte, error) {
	p, off, err := s.find(h)
	if err == nil && mapsFiles {
		if p.raw == nil && p.rawErr == nil {
			p.raw, p.rawUnmap, p.rawErr = mapFile(filepath.Join(p.dir, p.base+".pack"))
		}
		if p.rawErr == nil {
			typ, b, err := s.readPacked(p, off, limit)
			if s.reads.Add(1)%dropEvery == 0 {
				dropPages(p.raw)
			}
			switch {
			case err == nil && typ != objBlob:
				return nil, plumbing.ErrObjectNotFound
			case !errors.Is(err, errNotHere):
				return b, err
			}
		}
	}
	return s.blobFromGoGit(h, limit)
}

// blobMapped is blob for a reader that holds the Repo's read lock: it only
// reads packs indexed and mapped before, and fails (errNotHere) for
// anything else, which blob then reads under the lock.
func (s *packStore) blobMapped(h plumbing.Hash, limit int64) ([]byte, error) {
	if !s.loaded || s.off || !mapsFiles {
		return nil, errNotHere
	}
	for _, p := range s.packs {
		i, ok := p.idx.find(h)
		if !ok {
			continue
		}
		if p.raw == nil || p.rawErr != nil {
			return nil, errNotHere
		}
		off, err := p.idx.offset(i)
		if err != nil {
			return nil, err
		}
		typ, b, err := s.readPacked(p, off, limit)
		if s.reads.Add(1)%dropEvery == 0 {
			dropPages(p.raw)
		}
		if err == nil && typ != objBlob {
			return nil, errNotHere
		}
		return b, err
	}
	return nil, errNotHere
}

// blobFromGoGit reads a blob through go-git's objects.
func (s *packStore) blobFromGoGit(h plumbing.Hash, limit int64) ([]byte, error) {
	// go-git returns objects larger than 16 KiB as lazy handles whose size
	// comes from the pack or loose-object header, so this reads no content.
	o, err := s.EncodedObject(plumbing.BlobObject, h)
	if err != nil {
		return nil, err
	}
	if o.Size() < 0 {
		return nil, fmt.Errorf("negative size %d", o.Size())
	}
	if o.Size() > limit {
		return nil, fmt.Errorf("%d bytes: %w", o.Size(), ErrTooLarge)
	}
	rd, err := o.Reader()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	// The header's size sizes the buffer exactly; a stream that is longer
	// than it says is corrupt.
	b := make([]byte, o.Size())
	if _, err := io.ReadFull(rd, b); err != nil {
		return nil, err
	}
	var extra [1]byte
	if n, _ := rd.Read(extra[:]); n > 0 {
		return nil, fmt.Errorf("content longer than its header's %d bytes", o.Size())
	}
	return b, nil
}

// locate finds h in the packs and opens its pack file for go-git on first
// use.
func (s *packStore) locate(h plumbing.Hash) (*storedPack, int64, error) {
	p, off, err := s.find(h)
	if err != nil {
		return nil, 0, err
	}
	{
		if p.pf == nil {
			fs := osfs.New(p.dir)
			f, err := fs.Open(p.base + ".pack")
			if err != nil {
				return nil, 0, err
			}
			p.file = f
			p.pf = packfile.NewPackfileWithCache(p.idx, fs, f, s.cache, MaxBlobSize)
		}
		return p, off, nil
	}
}

// EncodedObject implements storer.EncodedObjectStorer.
func (s *packStore) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	p, _, err := s.locate(h)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		o, err := s.loose(h)
		if errors.Is(err, plumbing.ErrObjectNotFound) && s.off {
			return s.fallback.EncodedObject(t, h)
		}
		if err != nil {
			return nil, err
		}
		if t != plumbing.AnyObject && o.Type() != t {
			return nil, plumbing.ErrObjectNotFound
		}
		return o, nil
	}
	if err != nil {
		return nil, err
	}
	o, err := p.pf.Get(h)
	if err != nil {
		return nil, err
	}
	if t != plumbing.AnyObject && o.Type() != t {
		return nil, plumbing.ErrObjectNotFound
	}
	return o, nil
}

// loose reads h from the first object directory that holds it loose.
func (s *packStore) loose(h plumbing.Hash) (plumbing.EncodedObject, error) {
	for _, dir := range s.dirs {
		o, err := readLoose(dir, h)
		if !errors.Is(err, plumbing.ErrObjectNotFound) {
			return o, err
		}
	}
	return nil, plumbing.ErrObjectNotFound
}

// EncodedObjectSize implements storer.EncodedObjectStorer: the size from the
// object's header, without inflating a non-delta object.
func (s *packStore) EncodedObjectSize(h plumbing.Hash) (int64, error) {
	p, off, err := s.locate(h)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		for _, dir := range s.dirs {
			size, err := looseSize(dir, h)
			if !errors.Is(err, plumbing.ErrObjectNotFound) {
				return size, err
			}
		}
		if s.off {
			return s.fallback.EncodedObjectSize(h)
		}
		return 0, plumbing.ErrObjectNotFound
	}
	if err != nil {
		return 0, err
	}
	return p.pf.GetSizeByOffset(off)
}

// HasEncodedObject implements storer.EncodedObjectStorer.
func (s *packStore) HasEncodedObject(h plumbing.Hash) error {
	s.load()
	if !s.off {
		for _, p := range s.packs {
			if _, ok := p.idx.find(h); ok {
				return nil
			}
		}
	}
	for _, dir := range s.dirs {
		if hasLoose(dir, h) {
			return nil
		}
	}
	if s.off {
		return s.fallback.HasEncodedObject(h)
	}
	return plumbing.ErrObjectNotFound
}

// HashesWithPrefix lists the objects whose names start with prefix (at
// least one byte): loose ones from their fan-out directories, packed ones
// from the indexes.
func (s *packStore) HashesWithPrefix(prefix []byte) ([]plumbing.Hash, error) {
	s.load()
	if s.off {
		return s.fallback.HashesWithPrefix(prefix)
	}
	var hashes []plumbing.Hash
	for _, dir := range s.dirs {
		var err error
		if hashes, err = looseWithPrefix(dir, prefix, hashes); err != nil {
			return nil, err
		}
	}
	for _, p := range s.packs {
		hashes = p.idx.withPrefix(prefix, hashes)
	}
	seen := make(map[plumbing.Hash]bool, len(hashes))
	out := hashes[:0]
	for _, h := range hashes {
		if !seen[h] {
			seen[h] = true
			out = append(out, h)
		}
	}
	return out, nil
}

// promisorPacks reports whether a pack came from a promisor remote (a
// .promisor file beside it): the mark of a partial clone.
func (s *packStore) promisorPacks() bool {
	s.load()
	return s.promisor
}

// NewEncodedObject implements storer.EncodedObjectStorer.
func (s *packStore) NewEncodedObject() plumbing.EncodedObject { return s.fallback.NewEncodedObject() }

// SetEncodedObject implements storer.EncodedObjectStorer: written loose.
func (s *packStore) SetEncodedObject(o plumbing.EncodedObject) (plumbing.Hash, error) {
	return s.fallback.SetEncodedObject(o)
}

// IterEncodedObjects implements storer.EncodedObjectStorer.
func (s *packStore) IterEncodedObjects(t plumbing.ObjectType) (storer.EncodedObjectIter, error) {
	return s.fallback.IterEncodedObjects(t)
}

// AddAlternate implements storer.EncodedObjectStorer.
func (s *packStore) AddAlternate(remote string) error { return s.fallback.AddAlternate(remote) }
