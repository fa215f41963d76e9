package gitrepo

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
)

// packIndex reads a pack's .idx file (version 2) in place. go-git's
// MemoryIndex copies every name through a checksumming reader when it is
// loaded and builds a map of all offsets the first time a delta is resolved;
// on a repository of 360k objects that is over 100 ms per process, more than
// the analysis of a small commit. This index costs one read of the file, and
// its offset-to-name lookups use the pack's .rev file when git wrote one
// (git 2.31+), or an order built once on first use.
type packIndex struct {
	name   string // for messages
	n      uint32
	fanout [256]uint32
	names  []byte // n * 20
	crc    []byte // n * 4
	off32  []byte // n * 4
	off64  []byte // 8 per large offset
	pack   [20]byte

	unmap func() error // releases the mapped .idx file

	revFile  string // the .rev file beside it, read on first FindHash
	revOnce  sync.Once
	revRaw   []byte // the .rev file's positions table (4 bytes each), mapped
	revUnmap func() error
	rev      []uint32 // or the positions ordered by pack offset, computed
	revErr   error
}

var _ idxfile.Index = (*packIndex)(nil)

var (
	idxMagic = []byte{0xff, 't', 'O', 'c'}
	revMagic = []byte{'R', 'I', 'D', 'X'}
)

// errMalformedIdx is wrapped by every parse error of an index.
var errMalformedIdx = errors.New("malformed pack index")

// readPackIndex reads the index at path; revPath names the .rev file that
// may sit beside it.
func readPackIndex(path, revPath string) (*packIndex, error) {
	b, unmap, err := mapFile(path)
	if err != nil {
		return nil, err
	}
	idx, err := parsePackIndex(b)
	if err != nil {
		_ = unmap()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	idx.name, idx.revFile, idx.unmap = path, revPath, unmap
	return idx, nil
}

// close releases the mapped files. The index must not be used afterwards.
func (idx *packIndex) close() error {
	var err error
	if idx.revUnmap != nil {
		err = idx.revUnmap()
		idx.revUnmap = nil
	}
	if idx.unmap != nil {
		if e := idx.unmap(); e != nil {
			err = e
		}
		idx.unmap = nil
	}
	return err
}

// parsePackIndex checks the layout of a version 2 index and slices b into its
// tables. It does not verify the trailing checksum (git does not either when
// it opens a pack).
func parsePackIndex(b []byte) (*packIndex, error) {
	const header = 8 + 256*4
	if len(b) < header+40 || !bytes.Equal(b[:4], idxMagic) {
		return nil, fmt.Errorf("%w: not a version 2 index", errMalformedIdx)
	}
	if v := binary.BigEndian.Uint32(b[4:8]); v != 2 {
		return nil, fmt.Errorf("%w: version %d", errMalformedIdx, v)
	}
	idx := &packIndex{}
	prev := uint32(0)
	for i := range idx.fanout {
		f := binary.BigEndian.Uint32(b[8+4*i:])
		if f < prev {
			return nil, fmt.Errorf("%w: fanout not monotonic", errMalformedIdx)
		}
		idx.fanout[i], prev = f, f
	}
	n := uint64(idx.fanout[255])
	fixed := uint64(header) + n*(20+4+4) + 40
	if uint64(len(b)) < fixed || (uint64(len(b))-fixed)%8 != 0 {
		return nil, fmt.Errorf("%w: %d bytes for %d objects", errMalformedIdx, len(b), n)
	}
	idx.n = uint32(n)
	p := uint64(header)
	idx.names = b[p : p+n*20]
	p += n * 20
	idx.crc = b[p : p+n*4]
	p += n * 4
	idx.off32 = b[p : p+n*4]
	p += n * 4
	idx.off64 = b[p : uint64(len(b))-40]
	copy(idx.pack[:], b[len(b)-40:])
	return idx, nil
}

// find returns the position of h in the sorted name table.
func (idx *packIndex) find(h plumbing.Hash) (int, bool) {
	lo := 0
	if h[0] > 0 {
		lo = int(idx.fanout[h[0]-1])
	}
	hi := int(idx.fanout[h[0]])
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		switch c := bytes.Compare(idx.names[mid*20:mid*20+20], h[:]); {
		case c == 0:
			return mid, true
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, false
}

// offset returns the pack offset of the object at position i.
func (idx *packIndex) offset(i int) (int64, error) {
	o := binary.BigEndian.Uint32(idx.off32[i*4:])
	if o&0x80000000 == 0 {
		return int64(o), nil
	}
	k := uint64(o&0x7fffffff) * 8
	if k+8 > uint64(len(idx.off64)) {
		return 0, fmt.Errorf("%s: %w: large offset %d out of range", idx.name, errMalformedIdx, k/8)
	}
	v := binary.BigEndian.Uint64(idx.off64[k:])
	if v > 1<<62 {
		return 0, fmt.Errorf("%s: %w: offset %d", idx.name, errMalformedIdx, v)
	}
	return int64(v), nil
}

func (idx *packIndex) hashAt(i int) plumbing.Hash {
	var h plumbing.Hash
	copy(h[:], idx.names[i*20:])
	return h
}

// Contains implements idxfile.Index.
func (idx *packIndex) Contains(h plumbing.Hash) (bool, error) {
	_, ok := idx.find(h)
	return ok, nil
}

// FindOffset implements idxfile.Index.
func (idx *packIndex) FindOffset(h plumbing.Hash) (int64, error) {
	i, ok := idx.find(h)
	if !ok {
		return 0, plumbing.ErrObjectNotFound
	}
	return idx.offset(i)
}

// FindCRC32 implements idxfile.Index.
func (idx *packIndex) FindCRC32(h plumbing.Hash) (uint32, error) {
	i, ok := idx.find(h)
	if !ok {
		return 0, plumbing.ErrObjectNotFound
	}
	return binary.BigEndian.Uint32(idx.crc[i*4:]), nil
}

// FindHash implements idxfile.Index: the name of the object at pack offset o,
// by binary search over the positions ordered by offset.
func (idx *packIndex) FindHash(o int64) (plumbing.Hash, error) {
	if err := idx.byOffset(); err != nil {
		return plumbing.ZeroHash, err
	}
	lo, hi := 0, int(idx.n)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		i := idx.revAt(mid)
		off, err := idx.offset(i)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		switch {
		case off == o:
			return idx.hashAt(i), nil
		case off < o:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return plumbing.ZeroHash, plumbing.ErrObjectNotFound
}

// revAt returns the index position of the k-th object in pack order; byOffset
// has succeeded. A .rev entry out of range reads as position 0, whose offset
// then fails the search's comparison rather than indexing out of bounds.
func (idx *packIndex) revAt(k int) int {
	if idx.rev != nil {
		return int(idx.rev[k])
	}
	i := binary.BigEndian.Uint32(idx.revRaw[4*k:])
	if i >= idx.n {
		return 0
	}
	return int(i)
}

// byOffset prepares the order of index positions by pack offset: the .rev
// file when it is present and matches the pack, else an order computed once.
func (idx *packIndex) byOffset() error {
	idx.revOnce.Do(func() {
		if idx.revFile != "" {
			if b, unmap, err := mapFile(idx.revFile); err == nil {
				if raw, ok := idx.parseRev(b); ok {
					idx.revRaw, idx.revUnmap = raw, unmap
					return
				}
				_ = unmap()
			}
		}
		type pos struct {
			off int64
			i   uint32
		}
		all := make([]pos, idx.n)
		for i := range all {
			off, err := idx.offset(i)
			if err != nil {
				idx.revErr = err
				return
			}
			all[i] = pos{off, uint32(i)}
		}
		slices.SortFunc(all, func(a, b pos) int {
			switch {
			case a.off < b.off:
				return -1
			case a.off > b.off:
				return 1
			}
			return 0
		})
		idx.rev = make([]uint32, idx.n)
		for k, p := range all {
			idx.rev[k] = p.i
		}
	})
	return idx.revErr
}

// parseRev checks a reverse index (RIDX version 1, SHA-1) against this pack
// and returns its positions table. A file that does not match the pack or is
// malformed is ignored.
func (idx *packIndex) parseRev(b []byte) ([]byte, bool) {
	n := uint64(idx.n)
	if uint64(len(b)) != 12+4*n+40 || !bytes.Equal(b[:4], revMagic) ||
		binary.BigEndian.Uint32(b[4:]) != 1 || binary.BigEndian.Uint32(b[8:]) != 1 ||
		!bytes.Equal(b[12+4*n:12+4*n+20], idx.pack[:]) {
		return nil, false
	}
	return b[12 : 12+4*n], true
}

// Count implements idxfile.Index.
func (idx *packIndex) Count() (int64, error) { return int64(idx.n), nil }

// Entries implements idxfile.Index, in name order.
func (idx *packIndex) Entries() (idxfile.EntryIter, error) {
	return &packIndexIter{idx: idx}, nil
}

// EntriesByOffset implements idxfile.Index, in pack order.
func (idx *packIndex) EntriesByOffset() (idxfile.EntryIter, error) {
	if err := idx.byOffset(); err != nil {
		return nil, err
	}
	return &packIndexIter{idx: idx, byOffset: true}, nil
}

// withPrefix appends the names that start with prefix.
func (idx *packIndex) withPrefix(prefix []byte, out []plumbing.Hash) []plumbing.Hash {
	if len(prefix) == 0 {
		return out
	}
	lo := 0
	if prefix[0] > 0 {
		lo = int(idx.fanout[prefix[0]-1])
	}
	hi := int(idx.fanout[prefix[0]])
	i := lo + sort.Search(hi-lo, func(k int) bool {
		return bytes.Compare(idx.names[(lo+k)*20:(lo+k)*20+20], prefix) >= 0
	})
	for ; i < hi && bytes.HasPrefix(idx.names[i*20:i*20+20], prefix); i++ {
		out = append(out, idx.hashAt(i))
	}
	return out
}

type packIndexIter struct {
	idx      *packIndex
	byOffset bool // else name order
	k        int
}

func (it *packIndexIter) Next() (*idxfile.Entry, error) {
	if it.k >= int(it.idx.n) {
		return nil, io.EOF
	}
	i := it.k
	if it.byOffset {
		i = it.idx.revAt(it.k)
	}
	it.k++
	off, err := it.idx.offset(i)
	if err != nil {
		return nil, err
	}
	return &idxfile.Entry{
		Hash:   it.idx.hashAt(i),
		CRC32:  binary.BigEndian.Uint32(it.idx.crc[i*4:]),
		Offset: uint64(off),
	}, nil
}

func (it *packIndexIter) Close() error { return nil }
