package gitrange

import (
	"context"
	"os"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/internal/analyze"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
)

// benchRange opens the repository named by RALPH_GATE_BENCH_REPO (the
// benchmark is skipped without one) and resolves HEAD~200 and HEAD.
func benchRange(b *testing.B) (repo *gitrepo.Repo, base, head plumbing.Hash) {
	b.Helper()
	dir := os.Getenv("RALPH_GATE_BENCH_REPO")
	if dir == "" {
		b.Skip("set RALPH_GATE_BENCH_REPO to a large repository")
	}
	repo, err := gitrepo.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	if head, err = repo.Resolve("HEAD"); err != nil {
		b.Fatal(err)
	}
	if base, err = repo.Resolve("HEAD~200"); err != nil {
		b.Fatal(err)
	}
	return repo, base, head
}

// BenchmarkAnalyzeRange analyzes HEAD~200..HEAD of the repository named by
// RALPH_GATE_BENCH_REPO (for example a clone of prometheus/prometheus).
func BenchmarkAnalyzeRange(b *testing.B) {
	repo, base, head := benchRange(b)
	for b.Loop() {
		if _, err := Analyze(context.Background(), repo, base, head, config.Default(), nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRangeReadFloor is the least a range analysis of HEAD~200..HEAD
// reads, with nothing parsed or compared: the tree diff of every commit and
// of the net change, and each distinct blob of a path the analyzer wants,
// inflated once (on every core). It is the floor under the range budget's
// comparison with `git log -p`, which diffs and inflates too (see
// docs/performance.md).
func BenchmarkRangeReadFloor(b *testing.B) {
	repo, base, head := benchRange(b)
	cfg := config.Default()
	src := &source{repo: repo, cfg: cfg}
	var bytes int64
	for b.Loop() {
		commits, err := repo.Range(base, head)
		if err != nil {
			b.Fatal(err)
		}
		pairs := [][2]plumbing.Hash{{base, head}}
		for _, c := range commits {
			pairs = append(pairs, [2]plumbing.Hash{c.Parent, c.Hash})
		}
		seen := map[plumbing.Hash]bool{}
		var reads []blobRead
		for _, p := range pairs {
			diff, err := repo.Diff(p[0], p[1])
			if err != nil {
				b.Fatal(err)
			}
			for _, d := range diff {
				for _, e := range []gitrepo.Entry{d.From, d.To} {
					if e.Path == "" || seen[e.Hash] || !analyze.Wants(e.Path) || cfg.Ignored(e.Path) || entrySkip(e.Mode, e.Mode) != "" {
						continue
					}
					seen[e.Hash] = true
					reads = append(reads, blobRead{hash: e.Hash})
				}
			}
		}
		src.readBlobs(reads)
		bytes = 0
		for _, r := range reads {
			bytes += int64(len(r.data))
		}
	}
	b.ReportMetric(float64(bytes)/(1<<20), "MiB/op")
}
