package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/ralph-gate/ralph-gate/collectors"
	"github.com/ralph-gate/ralph-gate/internal/affected"
	"github.com/ralph-gate/ralph-gate/internal/collect"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/runner"
)

// The two ends, as indexes of a scope's per-side fields.
const (
	baseSide = 0
	headSide = 1
)

// scope is what a comparison measures: each test collector narrowed to the
// part of the project the range can affect, worked out once, from BASE,
// for both ends, so that both measure the same tests.
type scope struct {
	specs []specScope
	notes []string
	// complete: every test is measured at both ends (see planScope).
	complete bool
	// full are the collectors unscoped, whose cache key a complete
	// measurement is also stored under.
	full []config.Collector
	// sig names a partial scope in the pipeline's memory of measurements;
	// empty for a complete one, which is the same as measuring everything.
	sig string
}

// specScope is one collector's part of a scope.
type specScope struct {
	spec  config.Collector
	whole bool // run as it is, at both ends
	// run are the arguments that replace ./... (Go) or are appended (the
	// other runners) at each end; a nil list at an end runs nothing there.
	run [2][]string
	// baseWhole runs the collector as it is at BASE (a complete comparison).
	baseWhole bool
	// carried are results of Go packages taken from the cache at each end:
	// an unaffected package's at both, an affected one's at BASE only.
	carried [2][]*collectors.Result
	// carriedKeys name them, for the scope's signature.
	carriedKeys []string
	// store are the per-package cache keys of the Go packages run at each
	// end whose results may be stored for later ranges.
	store [2]map[string]string
	// fromBase are the unaffected Go packages whose results HEAD takes from
	// BASE's measurement (a complete comparison).
	fromBase map[string]bool
	// testless is set for an end where none of the Go packages the scope
	// runs there has a test file, in a project that has tests elsewhere: no
	// test result is what that end should report, not missing data.
	testless [2]bool
}

// goScopeable reports whether a collector is go test over ./..., which the
// scope can narrow to packages.
func goScopeable(s config.Collector) bool {
	if runnerOf(s) != runner.Go || s.Shell {
		return false
	}
	n := 0
	for _, a := range s.Argv {
		if a == "./..." {
			n++
		}
	}
	return n == 1
}

// pathScopeable reports whether a collector is a test runner that takes
// paths to narrow it (pytest, vitest, jest, run directly).
func pathScopeable(s config.Collector) bool {
	r := runnerOf(s)
	return !s.Shell && (r == runner.Pytest || r == runner.Vitest || r == runner.Jest)
}

// planScope works out the comparison's scope. complete asks for every test
// at both ends: unaffected Go packages come from BASE's measurement, and
// the other runners run whole.
func (c *comparison) planScope(specs []config.Collector, complete bool) (*scope, error) {
	sc := &scope{complete: complete, full: specs}
	// Every path the range touched: new, deleted, and both names of a
	// rename.
	diff, err := c.rangeDiff()
	if err != nil {
		return nil, err
	}
	var changed []string
	for _, d := range diff {
		if d.To.Path != "" {
			changed = append(changed, d.To.Path)
		}
		if d.From.Path != "" && d.From.Path != d.To.Path {
			changed = append(changed, d.From.Path)
		}
	}
	for _, s := range specs {
		ss := specScope{spec: s, whole: true}
		switch {
		case !s.Tests:
		case goScopeable(s):
			if err := c.scopeGo(sc, &ss, changed, complete); err != nil {
				return nil, err
			}
		case pathScopeable(s) && !complete:
			if err := c.scopePaths(sc, &ss, changed); err != nil {
				return nil, err
			}
		case s.Tests && !complete:
			sc.notes = append(sc.notes, fmt.Sprintf("collector %s: measured whole (affected-only measuring narrows go test ./..., pytest, vitest and jest run directly)", s.Name))
		}
		sc.specs = append(sc.specs, ss)
	}
	if !complete && sc.narrowed() {
		type part struct {
			Name    string
			Run     [2][]string
			Carried []string
		}
		var parts []part
		for _, ss := range sc.specs {
			parts = append(parts, part{ss.spec.Name, ss.run, ss.carriedKeys})
		}
		b, _ := json.Marshal(parts) // plain data: cannot fail
		sum := sha256.Sum256(b)
		sc.sig = hex.EncodeToString(sum[:8])
	}
	return sc, nil
}

// baseGraph returns BASE's Go import graph, from the cache or from go list
// in a temporary worktree of BASE.
func (c *comparison) baseGraph(tools map[string]string) (*affected.Go, error) {
	opt := c.p.opt
	bc, err := opt.Repo.Commit(c.base)
	if err != nil {
		return nil, err
	}
	key := collect.Key(nil, tools, "go import graph v3", "tree "+bc.Tree.String())
	var g affected.Go
	if opt.Cache != nil && opt.Cache.GetJSON(key, &g) {
		return &g, nil
	}
	if opt.Progress != nil {
		if p := opt.Progress("BASE").Progress; p != nil {
			p("go list -deps", "reading the import graph", 0)
		}
	}
	wt, err := collect.AddWorktree(c.ctx, opt.RepoDir, c.base.String())
	if err != nil {
		return nil, err
	}
	defer wt.Remove()
	goBin, env, err := collect.ToolCommand("go", opt.Environ, wt.Dir, opt.RepoDir)
	if err != nil {
		return nil, err
	}
	loaded, err := affected.LoadGo(c.ctx, goBin, wt.Dir, env)
	if err != nil {
		return nil, err
	}
	if opt.Cache != nil {
		_ = opt.Cache.PutJSON(key, loaded) // a graph the cache lost is loaded again
	}
	return loaded, nil
}

// scopeGo narrows go test ./... to the packages the range can affect.
func (c *comparison) scopeGo(sc *scope, ss *specScope, changed []string, complete bool) error {
	tools := collect.ToolVersions(c.ctx, []config.Collector{ss.spec})
	g, err := c.baseGraph(tools)
	if err != nil {
		if c.ctx.Err() != nil {
			return c.ctx.Err()
		}
		sc.notes = append(sc.notes, fmt.Sprintf("collector %s: measured whole: BASE's import graph could not be read (%v)", ss.spec.Name, err))
		return nil
	}
	a := g.Affected(changed)
	if a.All {
		sc.notes = append(sc.notes, fmt.Sprintf("collector %s: every package measured: %s", ss.spec.Name, a.Why))
		return nil
	}
	hit := map[string]bool{}
	for _, u := range a.Units {
		hit[u] = true
	}
	ss.whole = false
	ss.store = [2]map[string]string{{}, {}}
	var targets []affected.GoPackage
	for _, p := range g.Packages {
		if p.Target && p.Dir != "" {
			targets = append(targets, p)
		}
	}
	var carried, omitted, run, baseCached int
	if complete {
		ss.fromBase, ss.baseWhole = map[string]bool{}, true
	}
	for _, p := range targets {
		dir := goDirArg(p.Dir)
		if complete {
			if hit[p.ImportPath] {
				ss.run[headSide] = append(ss.run[headSide], dir)
				run++
			} else {
				ss.fromBase[p.ImportPath] = true
				carried++
			}
			continue
		}
		var key string
		if c.p.opt.Cache != nil {
			if key, err = c.packageKey(g, p.ImportPath, ss.spec, tools); err != nil {
				return err
			}
		}
		if r := c.cachedPackage(key); r != nil {
			ss.carriedKeys = append(ss.carriedKeys, key)
			ss.carried[baseSide] = append(ss.carried[baseSide], r)
			if hit[p.ImportPath] {
				ss.run[headSide] = append(ss.run[headSide], dir)
				run++
				baseCached++
			} else {
				ss.carried[headSide] = append(ss.carried[headSide], r)
				carried++
			}
			continue
		}
		if !hit[p.ImportPath] {
			omitted++
			continue
		}
		run++
		ss.run[baseSide] = append(ss.run[baseSide], dir)
		if key != "" {
			ss.store[baseSide][p.ImportPath] = key
		}
		ss.run[headSide] = append(ss.run[headSide], dir)
	}
	// New packages: run where they have Go files.
	known := map[string]bool{}
	for _, p := range targets {
		known[p.Dir] = true
	}
	for _, d := range a.Dirs {
		if !known[d] {
			if !complete {
				ss.run[baseSide] = append(ss.run[baseSide], goDirArg(d))
			}
			ss.run[headSide] = append(ss.run[headSide], goDirArg(d))
			run++
		}
	}
	// Zero tests at an end is measured, not missing, only where the project
	// has tests outside the scope: a project with none stays "no tests ran".
	tested := false
	for _, p := range targets {
		tested = tested || p.HasTests
	}
	for side, commit := range [2]plumbing.Hash{c.base, c.head} {
		var tests bool
		ss.run[side], tests, err = goDirsAt(c.p.opt.Repo, commit, ss.run[side])
		if err != nil {
			return err
		}
		ss.testless[side] = !tests && len(ss.carried[side]) == 0 && ss.fromBase == nil && tested
	}
	if !complete && len(ss.run[baseSide]) == 0 && len(ss.run[headSide]) == 0 && len(ss.carried[baseSide]) == 0 {
		*ss = specScope{spec: ss.spec, whole: true}
		sc.notes = append(sc.notes, fmt.Sprintf("collector %s: the range affects no package and none has cached results: every package measured", ss.spec.Name))
		return nil
	}
	msg := fmt.Sprintf("collector %s: affected-only: %d of %d packages are affected by the range and run at both ends", ss.spec.Name, run, len(targets))
	if complete {
		others := fmt.Sprintf("%d are", carried)
		if carried == 1 {
			others = "one is"
		}
		msg = fmt.Sprintf("collector %s: affected-only: %d of %d packages are affected by the range and run at HEAD; the other %s carried from BASE's measurement, whose inputs they share", ss.spec.Name, run, len(targets), others)
	} else {
		if baseCached > 0 {
			msg += fmt.Sprintf(" (%d of them at HEAD only: BASE's results from the cache)", baseCached)
		}
		if carried > 0 {
			msg += fmt.Sprintf("; %s carried from the cache", plural(carried, "unaffected package"))
		}
		if omitted > 0 {
			msg += fmt.Sprintf("; %s not measured (no cached result; --all-packages measures them)", plural(omitted, "unaffected package"))
		}
	}
	sc.notes = append(sc.notes, msg)
	return nil
}

func goDirArg(dir string) string {
	if dir == "." {
		return "."
	}
	return "./" + dir
}

// goDirsAt keeps the package directories that hold Go files at commit, and
// reports whether one of them holds a test file.
func goDirsAt(repo *gitrepo.Repo, commit plumbing.Hash, dirs []string) (out []string, tests bool, err error) {
	seen := map[string]bool{}
	for _, d := range dirs {
		if seen[d] {
			continue
		}
		seen[d] = true
		entries, err := repo.ListDir(commit, strings.TrimPrefix(d, "./"))
		if errors.Is(err, gitrepo.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, false, err
		}
		goFiles := false
		for _, e := range entries {
			if e.Mode != filemode.Dir && strings.HasSuffix(e.Path, ".go") {
				goFiles = true
				tests = tests || strings.HasSuffix(e.Path, "_test.go")
			}
		}
		if goFiles {
			out = append(out, d)
		}
	}
	sort.Strings(out)
	return out, tests, nil
}

// expectsNoTests reports whether an end's scope runs only Go packages
// without test files (and carries nothing): zero tests there is measured,
// not missing.
func (sc *scope) expectsNoTests(side int) bool {
	if sc == nil || !sc.narrowed() {
		return false
	}
	for _, ss := range sc.specs {
		if !ss.spec.Tests {
			continue
		}
		if ss.whole || !ss.testless[side] {
			return false
		}
	}
	return true
}

// packageKey is the cache key of a Go package's results at BASE: the
// package, the contents (tree hashes) of every directory its tests are
// built from, its modules' go.mod and go.sum, the workspace files, the
// collector and the tools. An unaffected package has the same key at HEAD.
func (c *comparison) packageKey(g *affected.Go, importPath string, spec config.Collector, tools map[string]string) (string, error) {
	dirs, modules, ok := g.Inputs(importPath)
	if !ok {
		return "", fmt.Errorf("package %s is not in BASE's import graph", importPath)
	}
	lines := []string{"go package " + importPath}
	for _, d := range dirs {
		h, err := c.basePathHash(d)
		if err != nil {
			return "", err
		}
		lines = append(lines, "dir "+d+" "+h)
	}
	files := []string{"go.work", "go.work.sum"}
	for _, m := range modules {
		files = append(files, path.Join(m, "go.mod"), path.Join(m, "go.sum"))
	}
	for _, f := range files {
		h, err := c.basePathHash(f)
		if err != nil {
			return "", err
		}
		lines = append(lines, "file "+f+" "+h)
	}
	return collect.Key([]config.Collector{spec}, tools, lines...), nil
}

// basePathHash is pathHash at BASE, remembered: the packages' keys share
// most of their directories.
func (c *comparison) basePathHash(p string) (string, error) {
	if h, ok := c.baseHashes[p]; ok {
		return h, nil
	}
	h, err := pathHash(c.p.opt.Repo, c.base, p)
	if err != nil {
		return "", err
	}
	if c.baseHashes == nil {
		c.baseHashes = map[string]string{}
	}
	c.baseHashes[p] = h
	return h, nil
}

// pathHash is the object id of a path at commit ("." is the root tree), or
// "absent".
func pathHash(repo *gitrepo.Repo, commit plumbing.Hash, p string) (string, error) {
	if p == "." || p == "" {
		cm, err := repo.Commit(commit)
		if err != nil {
			return "", err
		}
		return cm.Tree.String(), nil
	}
	entries, err := repo.ListDir(commit, path.Dir(p))
	if errors.Is(err, gitrepo.ErrNotFound) {
		return "absent", nil
	}
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		if e.Path == p {
			return e.Hash.String(), nil
		}
	}
	return "absent", nil
}

// cachedPackage reads a Go package's results from the cache; nil when the
// cache has none.
func (c *comparison) cachedPackage(key string) *collectors.Result {
	if c.p.opt.Cache == nil || key == "" {
		return nil
	}
	m, ok := c.p.opt.Cache.Get(key)
	if !ok || m.Result == nil {
		return nil
	}
	return m.Result
}

// storePackages keeps the results of the Go packages an end ran, one cache
// entry a package, for later ranges.
func (c *comparison) storePackages(keys map[string]string, r *collectors.Result) {
	if c.p.opt.Cache == nil || r == nil || len(keys) == 0 {
		return
	}
	if len(r.Integrity) > 0 || r.Tests == nil {
		// Evidence with something wrong in it is never reused.
		return
	}
	for importPath, key := range keys {
		part := r.Filter(func(unit string) bool { return unit == importPath })
		if part.Tests.Len() == 0 && (part.Coverage == nil || len(part.Coverage.Files) == 0) && len(part.BuildFailures) == 0 {
			// Nothing of the package was reported: never stored as
			// "no tests".
			continue
		}
		_ = c.p.opt.Cache.Put(key, &collect.Measurement{Result: part}) // a lost entry is measured again
	}
}

// keepPackages stores, one cache entry a package, the Go packages' results
// of a BASE measured whole (--all-packages), so that later affected-only
// ranges carry the packages they do not affect.
func (c *comparison) keepPackages(baseM *collect.Measurement) {
	opt := c.p.opt
	if !opt.AllPackages || opt.Cache == nil || baseM == nil || len(opt.BaseReports) > 0 || opt.Collect == "none" {
		return
	}
	specs, err := c.collectorSpecs()
	if err != nil {
		return
	}
	for _, s := range specs {
		if !s.Tests || !goScopeable(s) {
			continue
		}
		tools := collect.ToolVersions(c.ctx, []config.Collector{s})
		g, err := c.baseGraph(tools)
		if err != nil {
			c.note("", fmt.Sprintf("collector %s: results not kept per package: BASE's import graph could not be read (%v)", s.Name, err))
			return
		}
		keys := map[string]string{}
		for _, p := range g.Packages {
			if !p.Target || p.Dir == "" {
				continue
			}
			if keys[p.ImportPath], err = c.packageKey(g, p.ImportPath, s, tools); err != nil {
				return
			}
		}
		c.storePackages(keys, baseM.Result)
	}
}

// scopePaths narrows pytest, vitest and jest to the paths the range can
// affect (JavaScript workspaces, Python test files).
func (c *comparison) scopePaths(sc *scope, ss *specScope, changed []string) error {
	r := runnerOf(ss.spec)
	var a affected.Scope
	if r == runner.Pytest {
		var err error
		if a, err = affected.AffectedPython(treeFiles{c.p.opt.Repo, c.base}, changed); err != nil {
			return err
		}
	} else {
		ws, err := c.baseWorkspaces()
		if err != nil {
			sc.notes = append(sc.notes, fmt.Sprintf("collector %s: measured whole: %v", ss.spec.Name, err))
			return nil
		}
		if len(ws) == 0 {
			sc.notes = append(sc.notes, fmt.Sprintf("collector %s: measured whole: the project declares no workspaces", ss.spec.Name))
			return nil
		}
		a = affected.AffectedWorkspaces(ws, changed)
		for i, d := range a.Dirs {
			a.Dirs[i] = d + "/"
		}
	}
	if a.All {
		sc.notes = append(sc.notes, fmt.Sprintf("collector %s: every test measured: %s", ss.spec.Name, a.Why))
		return nil
	}
	for side, commit := range [2]plumbing.Hash{c.base, c.head} {
		for _, p := range a.Dirs {
			h, err := pathHash(c.p.opt.Repo, commit, strings.TrimSuffix(p, "/"))
			if err != nil {
				return err
			}
			if h != "absent" {
				ss.run[side] = append(ss.run[side], p)
			}
		}
	}
	if len(ss.run[baseSide]) == 0 && len(ss.run[headSide]) == 0 {
		sc.notes = append(sc.notes, fmt.Sprintf("collector %s: the range affects no test: every test measured", ss.spec.Name))
		return nil
	}
	ss.whole = false
	sc.notes = append(sc.notes, fmt.Sprintf("collector %s: affected-only: %s run at both ends where they exist (%s); the other tests are not measured (--all-packages measures them)",
		ss.spec.Name, plural(len(a.Dirs), "path"), strings.Join(a.Units, ", ")))
	return nil
}

// baseWorkspaces returns BASE's JavaScript workspaces, from the cache or
// read from its tree (every source file of every workspace, for the
// references package.json does not declare).
func (c *comparison) baseWorkspaces() ([]affected.Workspace, error) {
	opt := c.p.opt
	bc, err := opt.Repo.Commit(c.base)
	if err != nil {
		return nil, err
	}
	key := collect.Key(nil, nil, "js workspaces v1", "tree "+bc.Tree.String())
	var ws []affected.Workspace
	if opt.Cache != nil && opt.Cache.GetJSON(key, &ws) {
		return ws, nil
	}
	if ws, err = affected.Workspaces(treeFiles{opt.Repo, c.base}); err != nil {
		return nil, err
	}
	if opt.Cache != nil {
		_ = opt.Cache.PutJSON(key, ws) // workspaces the cache lost are read again
	}
	return ws, nil
}

// treeFiles reads BASE's tree for workspace detection.
type treeFiles struct {
	repo   *gitrepo.Repo
	commit plumbing.Hash
}

func (t treeFiles) Read(name string) ([]byte, bool, error) {
	b, err := t.repo.ReadFile(t.commit, name)
	if errors.Is(err, gitrepo.ErrNotFound) || errors.Is(err, gitrepo.ErrTooLarge) {
		return nil, false, nil
	}
	return b, err == nil, err
}

func (t treeFiles) Dirs(dir string) ([]string, error) {
	entries, err := t.repo.ListDir(t.commit, dir)
	if errors.Is(err, gitrepo.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if e.Mode == filemode.Dir {
			out = append(out, e.Path)
		}
	}
	return out, nil
}

func (t treeFiles) Walk(dir string, fn func(name string) error) error {
	entries, err := t.repo.ListDir(t.commit, dir)
	if errors.Is(err, gitrepo.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		switch {
		case e.Mode == filemode.Dir:
			if path.Base(e.Path) == "node_modules" {
				continue
			}
			if err := t.Walk(e.Path, fn); err != nil {
				return err
			}
		case e.Mode == filemode.Submodule:
		default:
			if err := fn(e.Path); err != nil {
				return err
			}
		}
	}
	return nil
}

// specsAt returns the collectors one end runs under the scope: narrowed,
// or dropped where they run nothing there.
func (sc *scope) specsAt(side int) []config.Collector {
	var out []config.Collector
	reports := false
	for _, ss := range sc.specs {
		if ss.whole || side == baseSide && ss.baseWhole {
			out = append(out, ss.spec)
			reports = reports || len(ss.spec.Reports) > 0
			continue
		}
		if len(ss.run[side]) == 0 {
			continue
		}
		out = append(out, narrowTo(ss.spec, ss.run[side]))
		reports = true
	}
	if !reports {
		return nil
	}
	return out
}

// narrowTo rewrites a collector to run only args: in place of ./... for go
// test, after the command for the path-taking runners.
func narrowTo(s config.Collector, args []string) config.Collector {
	out := s
	out.Argv = nil
	if runnerOf(s) == runner.Go {
		for _, a := range s.Argv {
			if a == "./..." {
				out.Argv = append(out.Argv, args...)
				continue
			}
			out.Argv = append(out.Argv, a)
		}
		return out
	}
	out.Argv = append(append(out.Argv, s.Argv...), args...)
	return out
}

// carriedAt are the results an end takes from elsewhere: the cache's, and
// for HEAD of a complete comparison, BASE's results of the packages the
// range does not affect.
func (sc *scope) carriedAt(side int, baseM *collect.Measurement) []*collectors.Result {
	var out []*collectors.Result
	for _, ss := range sc.specs {
		out = append(out, ss.carried[side]...)
		if side == headSide && ss.fromBase != nil && baseM != nil && baseM.Result != nil {
			from := ss.fromBase
			out = append(out, baseM.Result.Filter(func(unit string) bool { return from[unit] }))
		}
		if !ss.whole && !ss.baseWhole && len(ss.run[side]) == 0 && len(ss.run[1-side]) > 0 {
			// The other end runs tests this end does not have: this end
			// measured none of them.
			out = append(out, &collectors.Result{Tests: &collectors.Tests{}})
		}
	}
	return out
}

// narrowed reports whether the scope narrows any collector.
func (sc *scope) narrowed() bool {
	for _, ss := range sc.specs {
		if !ss.whole {
			return true
		}
	}
	return false
}

// needsBase reports whether HEAD takes results from BASE's measurement.
func (sc *scope) needsBase() bool {
	for _, ss := range sc.specs {
		if ss.fromBase != nil {
			return true
		}
	}
	return false
}

// measureScoped measures one end under the scope: the narrowed collectors
// run (from the cache when they ran before), and the carried results are
// merged in.
func (c *comparison) measureScoped(ctx context.Context, side int, sideName string, commit plumbing.Hash, sc *scope, baseM *collect.Measurement) (*collect.Measurement, bool, error) {
	opt := c.p.opt
	specs := sc.specsAt(side)
	carried := sc.carriedAt(side, baseM)
	var (
		m      *collect.Measurement
		cached bool
		err    error
	)
	if specs == nil {
		// Nothing runs at this end: every result is carried, from the
		// cache unless from BASE's measurement.
		m, err = collect.FromReports(opt.Repo, commit, nil)
		cached = !(side == headSide && sc.needsBase())
	} else {
		m, cached, err = collect.Measure(ctx, opt.Repo, opt.RepoDir, commit, specs, opt.Cache, c.runOptions(sideName))
	}
	if err != nil {
		return nil, false, err
	}
	if !cached {
		for _, ss := range sc.specs {
			c.storePackages(ss.store[side], m.Result)
		}
	}
	if len(carried) > 0 {
		m = m.WithResults(carried...)
	}
	if sc.complete && side == headSide && sc.needsBase() && opt.Cache != nil {
		// Complete: the same as measuring everything, and stored so, for
		// the next range that starts here.
		if cm, err := opt.Repo.Commit(commit); err == nil {
			_ = opt.Cache.Put(collect.CacheKey(cm.Tree, sc.full, collect.ToolVersions(ctx, sc.full)), m) // a lost entry is measured again
		}
	}
	return m, cached, nil
}
