package testscan

import (
	"crypto/sha256"
	"encoding/hex"
)

// TokenHash builds a TestCase.Fingerprint from a body's significant tokens: each
// token's kind and text, in order, so formatting and comments (which the caller
// leaves out) do not change it. The tokenizer-based extractors share it.
type TokenHash struct{ buf []byte }

// Add appends one token.
func (h *TokenHash) Add(kind byte, text string) {
	h.buf = append(h.buf, kind)
	h.buf = append(h.buf, text...)
	h.buf = append(h.buf, 0)
}

// Sum is the fingerprint: 16 hex digits of the tokens' SHA-256.
func (h *TokenHash) Sum() string {
	sum := sha256.Sum256(h.buf)
	return hex.EncodeToString(sum[:8])
}
