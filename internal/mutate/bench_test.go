package mutate

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkMutants makes a mutant for every line of real source files:
// Go's strings.go and net/http/server.go (the Go toolchain's own sources),
// the cost of choosing mutants for a change that rewrote whole files.
//
//	go test -bench Mutants -benchmem ./internal/mutate
func BenchmarkMutants(b *testing.B) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Fatalf("go env GOROOT: %v", err)
	}
	root := strings.TrimSpace(string(out))
	for _, name := range []string{"strings/strings.go", "net/http/server.go"} {
		src, err := os.ReadFile(filepath.Join(root, "src", name))
		if err != nil {
			b.Fatal(err)
		}
		var lines []int
		for i := range strings.Count(string(src), "\n") {
			lines = append(lines, i+1)
		}
		b.Run(filepath.Base(name), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			n := 0
			for b.Loop() {
				ms, err := For(name).Mutants(name, src, lines, nil)
				if err != nil {
					b.Fatal(err)
				}
				n = len(ms)
			}
			b.ReportMetric(float64(n), "mutants")
		})
	}
}
