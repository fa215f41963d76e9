package patch

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkReadAtTheCap reads a patch of about 64 MiB, the size cap: what
// the largest patch ralph-gate accepts costs in time and memory.
//
//	go test -run '^$' -bench ReadAtTheCap -benchmem ./internal/patch/
func BenchmarkReadAtTheCap(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < DefaultMaxBytes-(1<<20); i++ {
		fmt.Fprintf(&sb, "diff --git a/f%d.go b/f%d.go\n--- a/f%d.go\n+++ b/f%d.go\n@@ -1,40 +1,40 @@\n", i, i, i, i)
		for j := 0; j < 40; j++ {
			fmt.Fprintf(&sb, "-\tx := compute(%d, %d) // old line of some length\n", i, j)
			fmt.Fprintf(&sb, "+\tx := compute(%d, %d) // new line of some length\n", i, j+1)
		}
	}
	p := sb.String()
	b.SetBytes(int64(len(p)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Read("bench", strings.NewReader(p)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHostileHeader is the 46-byte patch whose header points at line
// 9,999,999: refused at once.
func BenchmarkHostileHeader(b *testing.B) {
	p := "--- a/x\n+++ b/x\n@@ -9999999 +9999999 @@\n-a\n+b\n"
	for i := 0; i < b.N; i++ {
		if _, err := Read("bench", strings.NewReader(p)); err == nil {
			b.Fatal("accepted")
		}
	}
}
