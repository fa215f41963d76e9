package golang

import (
	"go/ast"
)

// A unit is scanned for tokens one segment at a time, when a token of the
// segment is first asked for: a segment is a top-level declaration with the
// comments after it, up to the next declaration (the first segment is what
// comes before the first declaration). A test file's helpers and types are then
// never scanned, nor most of a file without tests. A declaration starts with a
// keyword, so the tokens of a segment are exactly those a scan of the whole
// unit finds there.

// source is one scanned segment of a unit: its tokens, whose offsets are offsets
// in the unit's buffer, and their hash text.
type source struct {
	src []byte // the unit's buffer
	lexed
}

// hashEnd is where the hash text of the i-th token ends.
func (src *source) hashEnd(i int) int {
	if i+1 < len(src.toks) {
		return int(src.toks[i+1].h)
	}
	return len(src.hash)
}

// segmentAt is the segment holding offset off, scanned on first use.
func (u *unit) segmentAt(off int) *source {
	if u.segStarts == nil {
		u.segStarts = []int{0}
		for _, d := range u.file.Decls {
			if o := u.off(d.Pos()); o > u.segStarts[len(u.segStarts)-1] {
				u.segStarts = append(u.segStarts, o)
			}
		}
		u.segs = make([]*source, len(u.segStarts))
	}
	i := len(u.segStarts) - 1
	for lo, hi := 0, len(u.segStarts)-1; lo < hi; {
		m := int(uint(lo+hi+1) >> 1)
		if u.segStarts[m] <= off {
			lo = m
		} else {
			hi = m - 1
		}
		i = lo
	}
	if u.segs[i] == nil {
		end := len(u.src)
		if i+1 < len(u.segStarts) {
			end = u.segStarts[i+1]
		}
		u.segs[i] = u.scratch.scan(u.src, u.segStarts[i], end)
	}
	return u.segs[i]
}

// span is the tokens of n, which lies within one top-level declaration.
func (u *unit) span(n ast.Node) tokenSeq {
	if n == nil {
		return tokenSeq{}
	}
	from, to := u.off(n.Pos()), u.off(n.End())
	src := u.segmentAt(from)
	i, j := tokenAt(src.toks, from), tokenAt(src.toks, to)
	if i > j {
		return tokenSeq{src: src}
	}
	return tokenSeq{src: src, toks: src.toks[i:j:j], first: i}
}

// scratch holds the memory that the segments of one extraction are scanned
// into, taken over from the previous extraction: a large file has millions of
// tokens, and fresh memory for them costs more than scanning them. A nil
// scratch hands out fresh memory.
type scratch struct {
	// lex holds the tokens of the segments scanned so far; a segment's tokens
	// are a piece of it (when append moves it, the pieces already handed out
	// stay where they were).
	lex lexed
	// needToks and needHash are what the last extraction used, to size the
	// next one's memory.
	needToks, needHash int
	hasherBuf          []byte // see hasher
}

// spareScratch holds the scratch memory of the last extractions, kept for
// the next: one per parsing worker (a range parses on every core). A
// sync.Pool loses it whenever the goroutine moves to another P, and at GC.
var spareScratch = make(chan *scratch, 2)

// maxSpare bounds the memory kept in spareScratch, in bytes; tokSize is the
// size of a tok.
const (
	maxSpare = 4 << 20
	tokSize  = 16
)

// getScratch is the scratch memory of a new extraction of size bytes of
// source. The memory is sized up front to what such a source needs at most
// in practice (a token per three bytes; token text no longer than the source
// plus a NUL per token), so that scanning it does not grow it step by step:
// each step copies what was scanned, and in a short run all of that is fresh
// memory. Memory reserved and not used costs nothing.
func getScratch(size int) *scratch {
	var sc *scratch
	select {
	case sc = <-spareScratch:
	default:
		sc = new(scratch)
	}
	needToks := max(sc.needToks, size/3)
	needHash := max(sc.needHash, size+size/3)
	if cap(sc.lex.toks) < needToks {
		sc.lex.toks = make([]tok, 0, needToks)
	}
	if cap(sc.lex.hash) < needHash {
		sc.lex.hash = make([]byte, 0, needHash)
	}
	sc.lex.toks, sc.lex.hash = sc.lex.toks[:0], sc.lex.hash[:0]
	return sc
}

// putScratch ends an extraction: nothing scanned in it may be used after.
func putScratch(sc *scratch) {
	sc.needToks, sc.needHash = len(sc.lex.toks), len(sc.lex.hash)
	if cap(sc.lex.toks)*tokSize+cap(sc.lex.hash) <= maxSpare {
		select {
		case spareScratch <- sc:
		default:
		}
	}
}

// scan scans src[from:to].
func (sc *scratch) scan(src []byte, from, to int) *source {
	if sc == nil {
		return &source{src: src, lexed: lex(src, from, to, &lexed{})}
	}
	return &source{src: src, lexed: lex(src, from, to, &sc.lex)}
}
