package collect

import (
	"context"
	"crypto/sha1"
	"fmt"
	"sort"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/collectors"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
)

// FromReports builds the measurement of a commit from report files that an
// earlier CI step wrote (compare --report): the reports' metrics plus the
// commit's tree statistics. Nothing runs.
func FromReports(repo *gitrepo.Repo, commit plumbing.Hash, r *collectors.Result) (*Measurement, error) {
	m := &Measurement{Commit: commit.String(), Result: r}
	deriveMetrics(&m.Metrics, r)
	stats, err := TreeStats(repo, commit)
	if err != nil {
		return nil, fmt.Errorf("measure %s: %w", short(commit), err)
	}
	m.Metrics.FileCount = &stats.Files
	m.Metrics.LinesOfCode = &stats.Lines
	m.Metrics.Complexity = &stats.Complexity
	return m, nil
}

// MeasureOverlay runs the collectors in a worktree of commit with other
// versions of some files laid over it (the tamper check puts BASE's test files
// over HEAD's code). The result is cached under a key made of the commit's tree
// and the overlaid files, so a re-run of the same comparison runs nothing.
func MeasureOverlay(ctx context.Context, repo *gitrepo.Repo, repoDir string, commit plumbing.Hash, overlay map[string][]byte, specs []config.Collector, cache *Cache, opts RunOptions) (*Measurement, bool, error) {
	c, err := repo.Commit(commit)
	if err != nil {
		return nil, false, fmt.Errorf("measure %s: %w", short(commit), err)
	}
	tools := ToolVersions(ctx, specs)
	key := CacheKey(overlayHash(c.Tree, overlay), specs, tools)
	if cache != nil {
		if m, ok := cache.Get(key); ok {
			return m, true, nil
		}
	}
	start := time.Now()
	wt, err := AddWorktree(ctx, repoDir, commit.String())
	if err != nil {
		return nil, false, err
	}
	defer wt.Remove()
	if err := wt.Overlay(overlay); err != nil {
		return nil, false, err
	}
	if opts.RepoDir == "" {
		opts.RepoDir = repoDir
	}
	m, err := Run(ctx, wt.Dir, specs, opts)
	if err != nil {
		return nil, false, err
	}
	m.Commit = commit.String()
	m.Tools = tools
	m.Duration = time.Since(start)
	if cache != nil {
		if err := cache.Put(key, m); err != nil {
			return m, false, err
		}
	}
	return m, false, nil
}

// overlayHash names a tree with files laid over it.
func overlayHash(tree plumbing.Hash, overlay map[string][]byte) plumbing.Hash {
	h := sha1.New()
	h.Write(tree[:])
	names := make([]string, 0, len(overlay))
	for n := range overlay {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(h, "\x00%s\x00%d\x00", n, len(overlay[n]))
		if overlay[n] == nil {
			h.Write([]byte("deleted"))
		}
		h.Write(overlay[n])
	}
	var out plumbing.Hash
	copy(out[:], h.Sum(nil))
	return out
}
