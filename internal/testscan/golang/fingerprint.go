package golang

import (
	"crypto/sha256"
	"encoding/hex"
)

// A fingerprint is the SHA-256 (first 8 bytes, in hex) of the text of a run of
// tokens, each followed by a NUL byte. Nested bodies (a test, its subtests, the
// loop body of each table row) hash the same tokens again and again, so the
// lexer writes the hash input of all the tokens of a unit once (lexed.hash) and
// a run of tokens is hashed from a slice of it.

// hasher accumulates token sequences into a fingerprint. One hasher serves a
// whole file, one fingerprint at a time, so that its buffer is reused.
type hasher struct {
	buf []byte
	// one is the only piece of input so far, hashed without a copy when no
	// other piece follows.
	one    []byte
	pieces int
	tokens int
}

// reset starts a new fingerprint.
func (h *hasher) reset() *hasher {
	h.buf, h.one, h.pieces, h.tokens = h.buf[:0], nil, 0, 0
	return h
}

func (h *hasher) write(b []byte) {
	switch h.pieces {
	case 0:
		h.one = b
	case 1:
		h.buf = append(append(h.buf[:0], h.one...), b...)
	default:
		h.buf = append(h.buf, b...)
	}
	h.pieces++
}

func (h *hasher) add(seq tokenSeq) {
	h.tokens += len(seq.toks)
	if len(seq.toks) == 0 {
		return
	}
	h.write(seq.src.hash[seq.toks[0].h:seq.src.hashEnd(seq.first+len(seq.toks)-1)])
}

func (h *hasher) addText(s string) {
	h.write(append([]byte(s), 0))
}

func (h *hasher) sum() string {
	in := h.buf
	if h.pieces == 1 {
		in = h.one
	}
	d := sha256.Sum256(in)
	return hex.EncodeToString(d[:8])
}
