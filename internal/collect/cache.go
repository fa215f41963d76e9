package collect

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
)

// cacheVersion changes when Measurement's meaning changes, so old entries
// are not read as new ones (v2: results keep branch coverage, which a v1
// entry lost, so it would read as a report without branch data).
const cacheVersion = "ralph-gate/collect/v2"

// Cache stores Measurements as JSON files, one per key, in a directory
// (normally <git-common-dir>/ralph-gate/cache). It is safe for concurrent
// use by several processes: entries are written atomically.
//
// The code under test runs in worktrees of the same repository and can
// write the cache directory: with a key (SetKey, the user's seal key, kept
// outside every repository), every entry carries an HMAC-SHA256 of its key
// and value, and an entry whose seal does not verify is a miss, so a forged
// measurement is never read.
type Cache struct {
	dir  string
	seal []byte
}

// SetKey makes the cache seal what it writes and read only what it sealed.
func (c *Cache) SetKey(key []byte) { c.seal = key }

// NewCache returns a cache stored in dir, created on first Put.
func NewCache(dir string) *Cache { return &Cache{dir: dir} }

// OpenCache returns the repository's cache, under its common git directory
// (as `git rev-parse --git-common-dir` names it), which linked worktrees share.
func OpenCache(repo *gitrepo.Repo) (*Cache, error) {
	dir, err := commonGitDir(repo.GitDir())
	if err != nil {
		return nil, fmt.Errorf("open cache: %w", err)
	}
	return NewCache(filepath.Join(dir, "ralph-gate", "cache")), nil
}

// Dir returns the cache's directory.
func (c *Cache) Dir() string { return c.dir }

// commonGitDir follows a linked worktree's commondir file.
func commonGitDir(gitDir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	if errors.Is(err, os.ErrNotExist) {
		return gitDir, nil
	}
	if err != nil {
		return "", err
	}
	p := strings.TrimSpace(string(b))
	if p == "" {
		return gitDir, nil
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(gitDir, p)
	}
	return filepath.Clean(p), nil
}

// CacheKey is the key of a measurement: sha256 over the tree, the
// collectors' specs (as JSON) and the tools' versions.
func CacheKey(tree plumbing.Hash, specs []config.Collector, tools map[string]string) string {
	return Key(specs, tools, "tree "+tree.String())
}

// Key is a cache key: sha256 over the lines that name what is stored (one
// line each, none containing a newline), the collectors' specs and the
// tools' versions.
func Key(specs []config.Collector, tools map[string]string, lines ...string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n", cacheVersion)
	for _, l := range lines {
		fmt.Fprintf(h, "%s\n", l)
	}
	specJSON, _ := json.Marshal(specs) // plain data: cannot fail
	fmt.Fprintf(h, "specs %s\n", specJSON)
	keys := make([]string, 0, len(tools))
	for k := range tools {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(h, "tool %q %q\n", k, tools[k])
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (c *Cache) path(key string) (string, error) {
	if len(key) != sha256.Size*2 || strings.Trim(key, "0123456789abcdef") != "" {
		return "", fmt.Errorf("cache: bad key %q", key)
	}
	return filepath.Join(c.dir, key+".json"), nil
}

// Get returns the measurement stored under key. A missing, unreadable or
// corrupt entry is a miss (the next Put rewrites it).
func (c *Cache) Get(key string) (*Measurement, bool) {
	var m Measurement
	if !c.GetJSON(key, &m) {
		return nil, false
	}
	return &m, true
}

// Put stores a measurement under key, atomically: the JSON goes to a
// temporary file in the cache directory, is synced, and renamed over the
// entry, so a concurrent reader sees the old entry or the new one.
func (c *Cache) Put(key string, m *Measurement) error { return c.PutJSON(key, m) }

// entry is a stored value with its key (a truncated, emptied or misnamed
// file is not read as another key's value) and, in a sealed cache, its seal.
type entry struct {
	Key   string          `json:"key"`
	Value json.RawMessage `json:"value"`
	Seal  string          `json:"seal,omitempty"`
}

// sealOf is the HMAC of an entry's key and value under the cache's key.
func (c *Cache) sealOf(key string, value []byte) string {
	mac := hmac.New(sha256.New, c.seal)
	mac.Write([]byte(key))
	mac.Write([]byte{0})
	mac.Write(value)
	return hex.EncodeToString(mac.Sum(nil))
}

// GetJSON reads the value stored under key into v; a missing or corrupt
// entry, or one whose seal does not verify, is a miss (the next Put
// rewrites it).
func (c *Cache) GetJSON(key string, v any) bool {
	p, err := c.path(key)
	if err != nil {
		return false
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return false
	}
	var e entry
	if err := json.Unmarshal(b, &e); err != nil || e.Key != key || len(e.Value) == 0 || string(e.Value) == "null" {
		return false
	}
	if c.seal != nil && !hmac.Equal([]byte(e.Seal), []byte(c.sealOf(key, e.Value))) {
		return false
	}
	return json.Unmarshal(e.Value, v) == nil
}

// PutJSON stores v under key, atomically (see Put).
func (c *Cache) PutJSON(key string, v any) error {
	value, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	e := entry{Key: key, Value: value}
	if c.seal != nil {
		e.Seal = c.sealOf(key, value)
	}
	return c.put(key, e)
}

func (c *Cache) put(key string, e entry) error {
	p, err := c.path(key)
	if err != nil {
		return err
	}
	b, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("cache %s: %w", p, err)
	}
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	f, err := os.CreateTemp(c.dir, key+".*.tmp")
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	tmp := f.Name()
	_, werr := f.Write(b)
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("cache: write %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, p); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("cache: %w", err)
	}
	if d, err := os.Open(c.dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
	return nil
}

// Measure measures a commit: it returns the cached measurement when there is
// one (cached is true, and no command runs), otherwise it checks the commit
// out in a temporary worktree of the repository at repoDir, runs the
// collectors there, adds the tree statistics (file_count, lines_of_code,
// complexity, read from git objects), stores the result in the cache and
// removes the worktree, also on failure and cancellation. cache may be nil
// (--no-cache). A measurement that the cache could not store is returned
// with the error. Notes about collectors that were not detected come from
// Detect, not from here.
func Measure(ctx context.Context, repo *gitrepo.Repo, repoDir string, commit plumbing.Hash, specs []config.Collector, cache *Cache, opts RunOptions) (*Measurement, bool, error) {
	start := time.Now()
	c, err := repo.Commit(commit)
	if err != nil {
		return nil, false, fmt.Errorf("measure %s: %w", short(commit), err)
	}
	tools := ToolVersions(ctx, specs)
	key := CacheKey(c.Tree, specs, tools)
	if cache != nil {
		if m, ok := cache.Get(key); ok {
			return m, true, nil
		}
	}
	stats, err := TreeStats(repo, commit)
	if err != nil {
		return nil, false, fmt.Errorf("measure %s: %w", short(commit), err)
	}
	m, err := measureWorktree(ctx, repoDir, commit, specs, opts, tools)
	if err != nil {
		return nil, false, err
	}
	m.Commit, m.Tree = commit.String(), c.Tree.String()
	m.Metrics.FileCount = &stats.Files
	m.Metrics.LinesOfCode = &stats.Lines
	m.Metrics.Complexity = &stats.Complexity
	m.Duration = time.Since(start)
	if cache != nil {
		if err := cache.Put(key, m); err != nil {
			return m, false, err
		}
	}
	return m, false, nil
}

func measureWorktree(ctx context.Context, repoDir string, commit plumbing.Hash, specs []config.Collector, opts RunOptions, tools map[string]string) (m *Measurement, err error) {
	if opts.RepoDir == "" {
		opts.RepoDir = repoDir
	}
	wt, err := AddWorktree(ctx, repoDir, commit.String())
	if err != nil {
		return nil, fmt.Errorf("measure %s: %w", short(commit), err)
	}
	defer func() {
		if rmErr := wt.Remove(); rmErr != nil && err == nil {
			err = fmt.Errorf("measure %s: %w", short(commit), rmErr)
		}
	}()
	m, err = run(ctx, wt.Dir, specs, opts, tools)
	if err != nil {
		return nil, fmt.Errorf("measure %s: %w", short(commit), err)
	}
	return m, nil
}

func short(h plumbing.Hash) string { return h.String()[:7] }
