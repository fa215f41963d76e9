package main

import (
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/lazyre"
)

// The binary's package-level patterns compile on first use (lazyre); this
// compiles every one it links, so that a bad pattern fails here rather
// than on the one run that reaches it.
func TestEveryPatternCompiles(t *testing.T) {
	if bad, err := lazyre.CompileAll(); err != nil {
		t.Fatalf("pattern %q: %v", bad, err)
	}
}
