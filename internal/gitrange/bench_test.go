package gitrange

import (
	"context"
	"os"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
)

// BenchmarkAnalyzeRange analyzes HEAD~200..HEAD of the repository named by
// RALPH_GATE_BENCH_REPO (for example a clone of prometheus/prometheus).
func BenchmarkAnalyzeRange(b *testing.B) {
	dir := os.Getenv("RALPH_GATE_BENCH_REPO")
	if dir == "" {
		b.Skip("set RALPH_GATE_BENCH_REPO to a large repository")
	}
	repo, err := gitrepo.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	head, err := repo.Resolve("HEAD")
	if err != nil {
		b.Fatal(err)
	}
	base, err := repo.Resolve("HEAD~200")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Analyze(context.Background(), repo, base, head, config.Default(), nil); err != nil {
			b.Fatal(err)
		}
	}
}
