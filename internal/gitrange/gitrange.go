// Package gitrange feeds a git range to the analyzer: each commit of BASE..HEAD
// against its first parent, then the net change BASE..HEAD, reading only the
// blobs the analysis needs.
package gitrange

import (
	"context"
	"errors"
	"fmt"
	"path"
	"runtime"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/ralph-gate/ralph-gate/internal/analyze"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/par"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scanners"
)

// Result is what a range analysis found.
type Result struct {
	Base, Head plumbing.Hash
	Findings   []gate.Finding
	Commits    []gate.Commit
	Notes      []gate.Note
}

// Progress is told how far the analysis has got; nil is allowed.
type Progress func(done, total int, sha string)

// Analyze analyzes every commit of base..head and the net change; a nil cfg
// is the default configuration.
func Analyze(ctx context.Context, repo *gitrepo.Repo, base, head plumbing.Hash, cfg *config.Config, progress Progress) (*Result, error) {
	if cfg == nil {
		cfg = config.Default()
	}
	commits, err := repo.Range(base, head)
	if err != nil {
		return nil, err
	}
	an := analyze.New(cfg)
	// Each change parses only what its two sides do not share. In a range a
	// version is then parsed once per change it is in rather than once in
	// all, but the masked parses are cheaper: on prometheus's last 200
	// commits 0.82-0.87 s against 0.98-1.02 s, with the same findings over
	// its last 2,000.
	an.MaskUnchanged()
	src := &source{repo: repo, cfg: cfg, base: base, mainline: map[plumbing.Hash]bool{base: true}}
	for _, c := range commits {
		src.mainline[c.Hash] = true
	}
	// The net change is analyzed beside the last commits, once every commit
	// is handed out: its comparisons run on one core, and the last commits
	// would leave the other idle (prometheus's last 200: 0.72 s instead of
	// 0.80 s). Starting it with the first commits is no faster and holds
	// its memory all along.
	var (
		net    []gate.Finding
		netErr error
		netWG  sync.WaitGroup
	)
	single := len(commits) == 1 && commits[0].Parent == base
	netLeads := func() ([]string, bool) {
		var out []string
		unnamed := false
		for _, c := range commits {
			named, u := src.leads(c)
			out = append(out, named...)
			unnamed = unnamed || u
		}
		return out, unnamed
	}
	dispatched := make(chan struct{})
	if !single && len(commits) > 0 {
		netWG.Add(1)
		go func() {
			defer netWG.Done()
			<-dispatched
			if ctx.Err() != nil {
				return
			}
			ch, err := src.change(base, head, "", an)
			if err != nil {
				netErr = err
				return
			}
			net = an.Analyze(ch)
			src.undo(base, head, netLeads, net)
		}()
	}
	per, err := analyzeCommits(ctx, an, src, commits, progress, dispatched)
	netWG.Wait()
	if err != nil {
		return nil, err
	}
	if netErr != nil {
		return nil, netErr
	}
	if err := src.failure(); err != nil {
		return nil, err
	}
	if single {
		// One commit on top of BASE: its change is the net change.
		net = append(net, per[0].Findings...)
	}
	findings, list := analyze.Combine(per, net)
	return &Result{Base: base, Head: head, Findings: findings, Commits: list, Notes: an.Notes()}, nil
}

// analyzeCommits analyzes each commit against its first parent, several commits
// at a time (the repository and the analyzer are safe for concurrent use), and
// returns the findings in commit order. It closes dispatched once every
// commit is handed to a worker (or the context is done).
func analyzeCommits(ctx context.Context, an *analyze.Analyzer, src *source, commits []gitrepo.Commit, progress Progress, dispatched chan<- struct{}) ([]analyze.CommitFindings, error) {
	per := make([]analyze.CommitFindings, len(commits))
	type result struct {
		i   int
		err error
	}
	jobs := make(chan int)
	results := make(chan result)
	workers := min(runtime.GOMAXPROCS(0), len(commits))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				c := commits[i]
				ch, err := src.change(c.Parent, c.Hash, c.Hash.String(), an)
				if err == nil {
					fs := an.Analyze(ch)
					src.undo(c.Parent, c.Hash, func() ([]string, bool) { return src.leads(c) }, fs)
					per[i] = analyze.CommitFindings{SHA: c.Hash.String(), Subject: c.Subject, Findings: fs}
				}
				results <- result{i, err}
			}
		}()
	}
	go func() {
		defer close(dispatched)
		defer close(jobs)
		for i := range commits {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()
	var firstErr error
	done := 0
	for r := range results {
		done++
		if r.err != nil && firstErr == nil {
			firstErr = r.err
		}
		if progress != nil {
			progress(done, len(commits), commits[r.i].Hash.String())
		}
	}
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return per, nil
}

type source struct {
	repo *gitrepo.Repo
	cfg  *config.Config

	// base is the range's BASE: a commit that a revert in the range
	// undoes must be in its history (see revert.go).
	base plumbing.Hash

	// mainline holds the range's commits and BASE: where a walk along a
	// merged branch for revert leads stops (read-only once set).
	mainline map[plumbing.Hash]bool

	mu      sync.Mutex
	err     error // the first blob that is missing and could not be fetched
	reverts map[string]*reverted

	historyOnce sync.Once
	history     []*reverted // see baseHistory
}

// fail records a read that makes the analysis void: the blob is missing
// from a partial clone and could not be fetched. Missing evidence never
// reads as no regression, and a person can fix this one (see
// gitrepo.ErrNotFetched), so the analysis ends with it as an input error.
func (s *source) fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		s.err = err
	}
}

// failure is the error recorded by fail, nil when none.
func (s *source) failure() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// change reads the tree diff between two commits (from may be the zero hash) into
// an analyze.Change, loading only the contents the analyzer wants.
func (s *source) change(from, to plumbing.Hash, sha string, an *analyze.Analyzer) (analyze.Change, error) {
	diff, err := s.repo.Diff(from, to)
	if err != nil {
		return analyze.Change{}, fmt.Errorf("diff %s..%s: %w", short(from), short(to), err)
	}
	ch := analyze.Change{Commit: sha}
	var reads []blobRead
	for _, d := range diff {
		fc := analyze.FileChange{OldPath: d.From.Path, NewPath: d.To.Path}
		p := fc.NewPath
		if p == "" {
			p = fc.OldPath
		}
		if !analyze.Wants(p) && (fc.OldPath == "" || !analyze.Wants(fc.OldPath)) {
			continue
		}
		if s.cfg.Ignored(p) && (fc.OldPath == "" || s.cfg.Ignored(fc.OldPath)) && p != config.FileName {
			continue
		}
		if skip := entrySkip(d.From.Mode, d.To.Mode); skip != "" {
			fc.Skip = skip
			ch.Files = append(ch.Files, fc)
			continue
		}
		switch {
		case fc.OldPath != "" && fc.NewPath != "":
			fc.OldKey, fc.NewKey = d.From.Hash.String(), d.To.Hash.String()
			fc.OldParsed, fc.NewParsed = an.ParsedPair(fc.OldPath, fc.OldKey, fc.NewPath, fc.NewKey)
		case fc.OldPath != "":
			fc.OldKey = d.From.Hash.String()
			fc.OldParsed = an.Parsed(fc.OldPath, fc.OldKey)
		default:
			fc.NewKey = d.To.Hash.String()
			fc.NewParsed = an.Parsed(fc.NewPath, fc.NewKey)
		}
		i := len(ch.Files)
		if fc.OldPath != "" && fc.OldParsed == nil {
			reads = append(reads, blobRead{file: i, old: true, hash: d.From.Hash})
		}
		if fc.NewPath != "" && fc.NewParsed == nil {
			reads = append(reads, blobRead{file: i, hash: d.To.Hash})
		}
		ch.Files = append(ch.Files, fc)
	}
	if err := s.prefetch(reads); err != nil {
		return analyze.Change{}, fmt.Errorf("diff %s..%s: %w", short(from), short(to), err)
	}
	s.readBlobs(reads)
	for _, r := range reads {
		fc := &ch.Files[r.file]
		switch {
		case r.old:
			fc.Old, fc.Skip = r.data, r.skip
		case fc.Skip == "":
			// A side that cannot be read is the file's reason; the old
			// side's comes first.
			fc.New, fc.Skip = r.data, r.skip
		}
	}
	ch.RelatedTests = func(prod string) []analyze.Source { return s.relatedTests(to, prod) }
	ch.Siblings = func(dir string) []analyze.Source { return s.siblings(to, dir, an) }
	if !from.IsZero() {
		ch.BaseCI = func() []analyze.Source { return s.ciFiles(from) }
	}
	ch.Exists = func(p string, head bool) bool {
		if head {
			return s.exists(to, p)
		}
		return from.IsZero() || s.exists(from, p)
	}
	ch.ReadHead = func(p string) []byte { return s.readAt(to, p) }
	if !from.IsZero() {
		ch.ReadBase = func(p string) []byte { return s.readAt(from, p) }
		ch.BaseFiles = func(dir string, want func(p string) bool, max int) ([]analyze.Source, bool) {
			return s.baseFiles(from, dir, want, max)
		}
	}
	return ch, nil
}

// ciDirs are the directories that hold a project's CI: its workflows and
// the scripts they run.
var ciDirs = []string{"", ".github/workflows", ".ci", "ci", "scripts"}

// maxCIFiles bounds the CI files read at a base.
const maxCIFiles = 64

// ciFiles returns the CI files at commit: workflows, root Makefiles and CI
// configurations, and the scripts of the CI directories.
func (s *source) ciFiles(commit plumbing.Hash) []analyze.Source {
	var out []analyze.Source
	for _, dir := range ciDirs {
		entries, err := s.repo.ListDir(commit, dir)
		if err != nil {
			if errors.Is(err, gitrepo.ErrNotFetched) {
				s.fail(err)
			}
			continue
		}
		for _, e := range entries {
			if e.Mode != filemode.Regular && e.Mode != filemode.Executable {
				continue
			}
			base := path.Base(e.Path)
			ext := path.Ext(base)
			switch {
			case dir == "" && !(base == "Makefile" || base == "makefile" || base == "GNUmakefile" || ext == ".mk" || base == ".gitlab-ci.yml"):
				continue
			case dir == ".github/workflows" && ext != ".yml" && ext != ".yaml":
				continue
			}
			b, skip := s.blob(e.Hash)
			if skip != "" {
				continue
			}
			out = append(out, analyze.Source{Path: e.Path, Key: e.Hash.String(), Data: b})
			if len(out) >= maxCIFiles {
				return out
			}
		}
	}
	return out
}

// prefetch fetches, in a partial clone, the blobs of reads that are
// missing, in one fetch rather than one per blob.
func (s *source) prefetch(reads []blobRead) error {
	if len(reads) == 0 {
		return nil
	}
	hs := make([]plumbing.Hash, len(reads))
	for i, r := range reads {
		hs[i] = r.hash
	}
	return s.repo.Prefetch(hs)
}

// blobRead is one side of a FileChange to read.
type blobRead struct {
	file int
	old  bool
	hash plumbing.Hash
	data []byte
	skip string
}

// minParallelReads is the least number of blobs read on several cores: a
// net change's hundreds of blobs were a fifth of a range's wall time read
// one at a time, a commit's few are not worth the goroutines.
const minParallelReads = 16

// readBlobs reads the blobs of reads, on every core when there are many.
func (s *source) readBlobs(reads []blobRead) {
	par.Each(len(reads), minParallelReads, func(i int) {
		reads[i].data, reads[i].skip = s.blob(reads[i].hash)
	})
}

func entrySkip(from, to filemode.FileMode) string {
	switch {
	case from == filemode.Submodule || to == filemode.Submodule:
		return "submodule: not analyzed"
	case from == filemode.Symlink || to == filemode.Symlink:
		return "symbolic link: not analyzed"
	}
	return ""
}

func (s *source) blob(h plumbing.Hash) ([]byte, string) {
	b, err := s.repo.Blob(h)
	switch {
	case errors.Is(err, gitrepo.ErrNotFetched):
		s.fail(err)
		return nil, "could not be read: " + err.Error()
	case errors.Is(err, gitrepo.ErrTooLarge):
		return nil, "larger than 4 MiB: skipped"
	case err != nil:
		return nil, "could not be read: " + err.Error()
	case gitrepo.IsBinary(b):
		return nil, "binary file: skipped"
	}
	return b, ""
}

// relatedTests returns the test files at commit that sit beside a production file
// or in the conventional test folders next to it.
func (s *source) relatedTests(commit plumbing.Hash, prod string) []analyze.Source {
	d := path.Dir(prod)
	dirs := []string{d, path.Join(d, "__tests__"), path.Join(d, "tests"), path.Join(d, "test")}
	var out []analyze.Source
	for _, dd := range dirs {
		entries, err := s.repo.ListDir(commit, dd)
		if err != nil {
			if errors.Is(err, gitrepo.ErrNotFetched) {
				s.fail(err)
			}
			continue
		}
		if !s.prefetchTests(entries, nil) {
			return nil
		}
		for _, e := range entries {
			if e.Mode != filemode.Regular && e.Mode != filemode.Executable {
				continue
			}
			ext := scanners.ForPath(e.Path)
			if ext == nil || !ext.IsTestFile(e.Path) {
				continue
			}
			b, skip := s.blob(e.Hash)
			if skip != "" {
				continue
			}
			out = append(out, analyze.Source{Path: e.Path, Key: e.Hash.String(), Data: b})
			if len(out) >= 50 {
				return out
			}
		}
	}
	return out
}

// siblings returns the test files of a directory at commit, reading only
// the contents the analyzer has not parsed already.
func (s *source) siblings(commit plumbing.Hash, dir string, an *analyze.Analyzer) []analyze.Source {
	entries, err := s.repo.ListDir(commit, dir)
	if err != nil {
		if errors.Is(err, gitrepo.ErrNotFetched) {
			s.fail(err)
		}
		return nil
	}
	if !s.prefetchTests(entries, an) {
		return nil
	}
	var out []analyze.Source
	for _, e := range entries {
		if e.Mode != filemode.Regular && e.Mode != filemode.Executable {
			continue
		}
		ext := scanners.ForPath(e.Path)
		if ext == nil || !ext.IsTestFile(e.Path) || s.cfg.Ignored(e.Path) {
			continue
		}
		src := analyze.Source{Path: e.Path, Key: e.Hash.String()}
		if src.Parsed = an.Parsed(e.Path, src.Key); src.Parsed == nil {
			b, skip := s.blob(e.Hash)
			if skip != "" {
				continue
			}
			src.Data = b
		}
		out = append(out, src)
		if len(out) >= maxSiblings {
			break
		}
	}
	return out
}

// prefetchTests fetches, in a partial clone, the test files among entries
// that the analyzer has not parsed (an may be nil), in one fetch. It
// reports false when the fetch failed, which is recorded with fail.
func (s *source) prefetchTests(entries []gitrepo.Entry, an *analyze.Analyzer) bool {
	if !s.repo.IsPartial() {
		return true
	}
	var hs []plumbing.Hash
	for _, e := range entries {
		if e.Mode != filemode.Regular && e.Mode != filemode.Executable {
			continue
		}
		if ext := scanners.ForPath(e.Path); ext == nil || !ext.IsTestFile(e.Path) {
			continue
		}
		if an != nil && an.Parsed(e.Path, e.Hash.String()) != nil {
			continue
		}
		hs = append(hs, e.Hash)
	}
	if err := s.repo.Prefetch(hs); err != nil {
		s.fail(err)
		return false
	}
	return true
}

// maxSiblings bounds the files read from one directory for its helpers.
const maxSiblings = 200

func short(h plumbing.Hash) string {
	if h.IsZero() {
		return "(empty)"
	}
	return h.String()[:8]
}

// Net analyzes only the net change base..head, without the per-commit pass:
// what a loop needs to compare an iteration with its baseline, at a cost that
// does not grow with the number of commits in between.
func Net(ctx context.Context, repo *gitrepo.Repo, base, head plumbing.Hash, cfg *config.Config) ([]gate.Finding, []gate.Note, error) {
	if cfg == nil {
		cfg = config.Default()
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	an := analyze.New(cfg)
	src := &source{repo: repo, cfg: cfg}
	ch, err := src.change(base, head, "", an)
	if err != nil {
		return nil, nil, err
	}
	fs := an.Analyze(ch)
	if err := src.failure(); err != nil {
		return nil, nil, err
	}
	for i := range fs {
		fs[i].Net = true
	}
	return fs, an.Notes(), nil
}
