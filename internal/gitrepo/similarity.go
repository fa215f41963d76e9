package gitrepo

import "sort"

// signature is a file's content summarized as git's diffcore-delta does for
// rename detection: the file is cut into chunks that end at a newline or after
// 64 bytes, each chunk is hashed, and the bytes per hash are counted. Two files
// are as similar as the bytes their chunks share.
type signature struct {
	size   int64
	chunks []chunkCount // sorted by hash
}

type chunkCount struct {
	hash  uint32
	bytes uint32
}

// hashBase is git's modulus for chunk hashes (a prime near 2^17).
const hashBase = 107927

// newSignature summarizes content. For text, a CR before LF is ignored, as git
// does, so a change of line endings alone stays a rename.
func newSignature(b []byte) *signature {
	text := !IsBinary(b)
	counts := map[uint32]uint32{}
	var acc1, acc2 uint32
	n := uint32(0)
	for i := 0; i < len(b); i++ {
		c := b[i]
		if text && c == '\r' && i+1 < len(b) && b[i+1] == '\n' {
			continue
		}
		old1 := acc1
		acc1 = (acc1 << 7) ^ (acc2 >> 25)
		acc2 = (acc2 << 7) ^ (old1 >> 25)
		acc1 += uint32(c)
		n++
		if n < 64 && c != '\n' {
			continue
		}
		counts[(acc1+acc2*0x61)%hashBase] += n
		acc1, acc2, n = 0, 0, 0
	}
	if n > 0 {
		counts[(acc1+acc2*0x61)%hashBase] += n
	}
	s := &signature{size: int64(len(b)), chunks: make([]chunkCount, 0, len(counts))}
	for h, c := range counts {
		s.chunks = append(s.chunks, chunkCount{hash: h, bytes: c})
	}
	sort.Slice(s.chunks, func(i, j int) bool { return s.chunks[i].hash < s.chunks[j].hash })
	return s
}

// similarity returns, in percent, the bytes of a's chunks found in b over the
// size of the larger file: git's estimate_similarity.
func similarity(a, b *signature) int {
	maxSize := max(a.size, b.size)
	if maxSize == 0 {
		return 100
	}
	var common int64
	i, j := 0, 0
	for i < len(a.chunks) && j < len(b.chunks) {
		x, y := a.chunks[i], b.chunks[j]
		switch {
		case x.hash < y.hash:
			i++
		case x.hash > y.hash:
			j++
		default:
			common += int64(min(x.bytes, y.bytes))
			i++
			j++
		}
	}
	return int(min(common*100/maxSize, 100))
}
