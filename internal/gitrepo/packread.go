package gitrepo

import (
	"bytes"
	"compress/zlib"
	"container/list"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
)

// This file reads blobs straight from a mapped pack file. go-git resolves a
// delta chain (up to 50 deep in a pack git wrote) by materializing and caching
// every intermediate version through a checksumming scanner: for one version
// of a 400 KB test file that is 20 MB of fresh memory, most of a per-commit
// run's time. Here a chain is resolved in two buffers that take turns as base
// and target, and only the chain's root and the results are cached.

// errNotHere says the pack reader cannot answer (the pack is not mapped, or a
// delta's base lives in another pack): the caller falls back to go-git.
var errNotHere = errors.New("not readable from the mapped pack")

// Pack object types (gitformat-pack).
const (
	objCommit   = 1
	objTree     = 2
	objBlob     = 3
	objTag      = 4
	objOfsDelta = 6
	objRefDelta = 7
)

// maxChain bounds a delta chain, against a pack whose offsets loop; and
// maxResolved the size of any version in a chain, against a corrupt size
// that would exhaust memory.
const (
	maxChain    = 10000
	maxResolved = 1 << 30
)

// objectHeader reads the entry header at off: its type, its size (the
// delta's own size for a delta), where its zlib data starts, and a delta's
// base (an offset for an offset delta, a name for a reference delta).
func objectHeader(pack []byte, off int64) (typ byte, size int64, data int64, baseOff int64, baseName plumbing.Hash, err error) {
	bad := func(what string) error { return fmt.Errorf("pack entry at %d: %s", off, what) }
	if off < 12 || off >= int64(len(pack)) {
		return 0, 0, 0, 0, baseName, bad("offset out of range")
	}
	p := off
	c := pack[p]
	p++
	typ = (c >> 4) & 7
	size = int64(c & 0x0f)
	shift := uint(4)
	for c&0x80 != 0 {
		if p >= int64(len(pack)) || shift > 56 {
			return 0, 0, 0, 0, baseName, bad("bad size")
		}
		c = pack[p]
		p++
		size |= int64(c&0x7f) << shift
		shift += 7
	}
	switch typ {
	case objCommit, objTree, objBlob, objTag:
	case objOfsDelta:
		if p >= int64(len(pack)) {
			return 0, 0, 0, 0, baseName, bad("truncated")
		}
		c = pack[p]
		p++
		rel := int64(c & 0x7f)
		for c&0x80 != 0 {
			if p >= int64(len(pack)) || rel > 1<<55 {
				return 0, 0, 0, 0, baseName, bad("bad base offset")
			}
			c = pack[p]
			p++
			rel = ((rel + 1) << 7) | int64(c&0x7f)
		}
		baseOff = off - rel
		if rel <= 0 || baseOff < 12 {
			return 0, 0, 0, 0, baseName, bad("base offset out of range")
		}
	case objRefDelta:
		if p+20 > int64(len(pack)) {
			return 0, 0, 0, 0, baseName, bad("truncated")
		}
		copy(baseName[:], pack[p:p+20])
		p += 20
	default:
		return 0, 0, 0, 0, baseName, bad(fmt.Sprintf("type %d", typ))
	}
	return typ, size, p, baseOff, baseName, nil
}

var zlibPool sync.Pool // of zlib readers (io.ReadCloser + zlib.Resetter)

// inflate decompresses the first len(dst) bytes of the zlib stream at
// pack[at:] into dst.
func inflate(pack []byte, at int64, dst []byte) error {
	src := bytes.NewReader(pack[at:])
	var zr io.ReadCloser
	if v := zlibPool.Get(); v != nil {
		zr = v.(io.ReadCloser)
		if err := zr.(zlib.Resetter).Reset(src, nil); err != nil {
			return fmt.Errorf("pack entry data at %d: %w", at, err)
		}
	} else {
		var err error
		if zr, err = zlib.NewReader(src); err != nil {
			return fmt.Errorf("pack entry data at %d: %w", at, err)
		}
	}
	defer zlibPool.Put(zr)
	if _, err := io.ReadFull(zr, dst); err != nil {
		return fmt.Errorf("pack entry data at %d: %w", at, err)
	}
	return nil
}

// deltaSizes reads a delta's header: the size of the base it applies to and
// of the object it makes, and where its instructions start.
func deltaSizes(delta []byte) (src, dst int64, rest []byte, err error) {
	read := func() (int64, error) {
		var v int64
		for shift := uint(0); ; shift += 7 {
			if len(delta) == 0 || shift > 56 {
				return 0, errors.New("bad delta header")
			}
			c := delta[0]
			delta = delta[1:]
			v |= int64(c&0x7f) << shift
			if c&0x80 == 0 {
				return v, nil
			}
		}
	}
	if src, err = read(); err != nil {
		return 0, 0, nil, err
	}
	if dst, err = read(); err != nil {
		return 0, 0, nil, err
	}
	return src, dst, delta, nil
}

// applyDelta writes into dst (which has the target's size) the object that
// delta's instructions make from base.
func applyDelta(dst, base, ops []byte) error {
	w := 0
	for len(ops) > 0 {
		cmd := ops[0]
		ops = ops[1:]
		switch {
		case cmd&0x80 != 0:
			var off, n uint64
			for i := uint(0); i < 4; i++ {
				if cmd&(1<<i) != 0 {
					if len(ops) == 0 {
						return errors.New("truncated delta copy")
					}
					off |= uint64(ops[0]) << (8 * i)
					ops = ops[1:]
				}
			}
			for i := uint(0); i < 3; i++ {
				if cmd&(0x10<<i) != 0 {
					if len(ops) == 0 {
						return errors.New("truncated delta copy")
					}
					n |= uint64(ops[0]) << (8 * i)
					ops = ops[1:]
				}
			}
			if n == 0 {
				n = 0x10000
			}
			if off+n > uint64(len(base)) || uint64(w)+n > uint64(len(dst)) {
				return errors.New("delta copy out of range")
			}
			w += copy(dst[w:], base[off:off+n])
		case cmd != 0:
			n := int(cmd)
			if n > len(ops) || w+n > len(dst) {
				return errors.New("delta insert out of range")
			}
			w += copy(dst[w:], ops[:n])
			ops = ops[n:]
		default:
			return errors.New("delta opcode 0")
		}
	}
	if w != len(dst) {
		return fmt.Errorf("delta made %d bytes, its header says %d", w, len(dst))
	}
	return nil
}

// resolvedCache keeps resolved objects by pack and offset, up to a number of
// bytes, least recently used first out. Its slices are shared: nobody writes
// to them.
type resolvedCache struct {
	mu          sync.Mutex // readers share it (see Repo.blobShared)
	limit, used int
	order       *list.List // of *resolvedEntry, most recent at the front
	byKey       map[resolvedKey]*list.Element
}

type resolvedKey struct {
	pack *storedPack
	off  int64
}

type resolvedEntry struct {
	key  resolvedKey
	typ  byte
	data []byte
}

func newResolvedCache(limit int) *resolvedCache {
	return &resolvedCache{limit: limit, order: list.New(), byKey: map[resolvedKey]*list.Element{}}
}

func (c *resolvedCache) get(k resolvedKey) (*resolvedEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[k]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*resolvedEntry), true
}

func (c *resolvedCache) put(k resolvedKey, typ byte, data []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(data) > c.limit/4 {
		return // one object must not flush the rest
	}
	if e, ok := c.byKey[k]; ok {
		c.order.MoveToFront(e)
		return
	}
	c.byKey[k] = c.order.PushFront(&resolvedEntry{key: k, typ: typ, data: data})
	c.used += len(data)
	for c.used > c.limit {
		last := c.order.Back()
		ent := last.Value.(*resolvedEntry)
		c.order.Remove(last)
		delete(c.byKey, ent.key)
		c.used -= len(ent.data)
	}
}

// readPacked reads the object at off in a mapped pack: its type and content,
// refusing (ErrTooLarge) an object larger than limit before inflating it. The
// content may be shared with the cache and must not be modified.
func (s *packStore) readPacked(p *storedPack, off int64, limit int64) (byte, []byte, error) {
	pack := p.raw
	key := resolvedKey{p, off}
	if e, ok := s.resolved.get(key); ok {
		return e.typ, e.data, nil
	}
	type link struct {
		off, data, size int64
	}
	var chain []link
	cur := off
	var typ byte
	var base []byte
	for {
		if len(chain) > maxChain {
			return 0, nil, fmt.Errorf("pack entry at %d: delta chain longer than %d", off, maxChain)
		}
		if cur != off {
			if e, ok := s.resolved.get(resolvedKey{p, cur}); ok {
				typ, base = e.typ, e.data
				break
			}
		}
		t, size, data, baseOff, baseName, err := objectHeader(pack, cur)
		if err != nil {
			return 0, nil, err
		}
		if t == objOfsDelta || t == objRefDelta {
			if len(chain) == 0 {
				// The object's size is the delta's target size: check it
				// before any inflating beyond the delta's header.
				head := make([]byte, min(size, 32))
				if err := inflate(pack, data, head); err != nil {
					return 0, nil, err
				}
				_, target, _, err := deltaSizes(head)
				if err != nil {
					return 0, nil, fmt.Errorf("pack entry at %d: %w", cur, err)
				}
				if target > limit {
					return 0, nil, fmt.Errorf("%d bytes: %w", target, ErrTooLarge)
				}
			}
			chain = append(chain, link{cur, data, size})
			if t == objRefDelta {
				i, ok := p.idx.find(baseName)
				if !ok {
					return 0, nil, errNotHere
				}
				if baseOff, err = p.idx.offset(i); err != nil {
					return 0, nil, err
				}
			}
			cur = baseOff
			continue
		}
		if len(chain) == 0 && size > limit {
			return 0, nil, fmt.Errorf("%d bytes: %w", size, ErrTooLarge)
		}
		if size > maxResolved {
			return 0, nil, fmt.Errorf("pack entry at %d: size %d", cur, size)
		}
		base = make([]byte, size)
		if err := inflate(pack, data, base); err != nil {
			return 0, nil, err
		}
		typ = t
		if len(chain) > 0 {
			s.resolved.put(resolvedKey{p, cur}, typ, base)
		}
		break
	}
	if len(chain) == 0 {
		s.resolved.put(key, typ, base)
		return typ, base, nil
	}
	// Apply the deltas from the one nearest the base up to the object. The
	// base may be cached, so the first target is a new buffer; after that two
	// buffers take turns.
	var spare, delta []byte
	for i := len(chain) - 1; i >= 0; i-- {
		l := chain[i]
		if int64(cap(delta)) < l.size {
			delta = make([]byte, l.size)
		}
		delta = delta[:l.size]
		if err := inflate(pack, l.data, delta); err != nil {
			return 0, nil, err
		}
		srcSize, dstSize, ops, err := deltaSizes(delta)
		if err != nil || srcSize != int64(len(base)) {
			return 0, nil, fmt.Errorf("pack entry at %d: delta for a %d-byte base applied to %d bytes (%v)", l.off, srcSize, len(base), err)
		}
		if dstSize > maxResolved {
			return 0, nil, fmt.Errorf("pack entry at %d: target size %d", l.off, dstSize)
		}
		var out []byte
		if i == 0 || int64(cap(spare)) < dstSize {
			out = make([]byte, dstSize) // the result is handed out: its own buffer
		} else {
			out = spare[:dstSize]
		}
		if err := applyDelta(out, base, ops); err != nil {
			return 0, nil, fmt.Errorf("pack entry at %d: %w", l.off, err)
		}
		if i == len(chain)-1 {
			spare = nil // the root may be cached: never write over it
		} else {
			spare = base
		}
		base = out
	}
	s.resolved.put(key, typ, base)
	return typ, base, nil
}
