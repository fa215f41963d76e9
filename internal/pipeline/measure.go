package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/collectors"
	"github.com/ralph-gate/ralph-gate/internal/collect"
	"github.com/ralph-gate/ralph-gate/internal/config"
)

// collectorSpecs returns the collectors to run: the options', else those
// detected from BASE's tree (or given in its configuration), detected once.
func (c *comparison) collectorSpecs() ([]config.Collector, error) {
	p := c.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.opt.Specs != nil {
		return p.opt.Specs, nil
	}
	if !p.detected {
		specs, notes, err := collect.Collectors(p.opt.Repo, c.base, p.opt.Config)
		if err != nil {
			return nil, err
		}
		p.specs, p.specNote, p.detected = specs, notes, true
	}
	for _, n := range p.specNote {
		c.note("", n)
	}
	return p.specs, nil
}

// measureBoth obtains the metrics of BASE and HEAD, from report files or by
// running the collectors, both ends at once. Missing data is an input error
// unless AllowMissing.
func (c *comparison) measureBoth() (*collect.Measurement, *collect.Measurement, error) {
	opt := c.p.opt
	var (
		ms        [2]*collect.Measurement
		errs      [2]error
		sides     = [2]plumbing.Hash{c.base, c.head}
		reports   = [2][]ReportGlob{opt.BaseReports, opt.Reports}
		sideNames = [2]string{"BASE", "HEAD"}
	)
	sc, err := c.scope()
	if err != nil {
		return nil, nil, err
	}
	if sc != nil && sc.needsBase() {
		// HEAD takes the unaffected packages' results from BASE's.
		ms[0], errs[0] = c.measure(sideNames[0], baseSide, sides[0], reports[0], sc, nil)
		if errs[0] == nil {
			ms[1], errs[1] = c.measure(sideNames[1], headSide, sides[1], reports[1], sc, ms[0])
		}
	} else {
		// One end after the other, never side by side: the two ends' tests
		// would collide wherever they share something outside their
		// checkouts (a fixed port such as :8080, a path under /tmp, a
		// database), and a test that fails because the other end held its
		// port is a regression that is not there.
		for i := range sides {
			ms[i], errs[i] = c.measure(sideNames[i], i, sides[i], reports[i], sc, nil)
		}
	}
	for i, err := range errs {
		// HEAD with no test at all where BASE had some is a regression the
		// comparison reports (a binary that exits early); no tests at BASE, or
		// no test report at an end, leaves nothing to compare.
		headLost := i == 1 && testsAt(ms[0]) > 0 && ms[1] != nil && ms[1].Result != nil && ms[1].Result.Tests != nil
		if err == nil && testsAt(ms[i]) == 0 && sc.expectsNoTests(i) && ms[i] != nil {
			c.note("", fmt.Sprintf("%s %s: none of the affected packages has a test file there", sideNames[i], short(sides[i])))
			continue
		}
		if err == nil && testsAt(ms[i]) == 0 && !headLost {
			err = inputf("no test results at %s %s: no tests ran, which is never a pass (give %s, configure collectors in %s, or pass --allow-missing)",
				sideNames[i], short(sides[i]), sideFlag(sideNames[i]), config.FileName)
		}
		if err == nil {
			continue
		}
		if opt.AllowMissing {
			c.note("", "missing data, allowed by --allow-missing: "+err.Error())
			ms[i] = nil
			continue
		}
		return nil, nil, err
	}
	return ms[0], ms[1], nil
}

// scope works out what the comparison measures when both ends run the
// collectors and not everything is asked for (--all-packages); nil measures
// everything.
func (c *comparison) scope() (*scope, error) {
	opt := c.p.opt
	if opt.AllPackages || opt.Collect == "none" || len(opt.Reports) > 0 || len(opt.BaseReports) > 0 || c.base == c.head {
		return nil, nil
	}
	specs, err := c.collectorSpecs()
	if err != nil || len(specs) == 0 {
		return nil, err
	}
	sc, err := c.planScope(specs, opt.Complete)
	if err != nil {
		if c.ctx.Err() != nil {
			return nil, c.ctx.Err()
		}
		return nil, fmt.Errorf("work out the packages the range affects: %w", err)
	}
	for _, n := range sc.notes {
		c.note("", n)
	}
	c.mu.Lock()
	c.scopeNotes = append(c.scopeNotes, sc.notes...)
	c.mu.Unlock()
	return sc, nil
}

// measure measures one end: from its report files, or with the collectors
// (from the pipeline's memory, then the cache, then a worktree), narrowed
// to the scope when there is one. baseM is BASE's measurement when HEAD
// takes results from it.
func (c *comparison) measure(side string, sideIdx int, commit plumbing.Hash, reports []ReportGlob, sc *scope, baseM *collect.Measurement) (*collect.Measurement, error) {
	opt := c.p.opt
	if len(reports) > 0 {
		r, err := readReports(c.ctx, opt.Dir, reports)
		if err != nil {
			return nil, err
		}
		return collect.FromReports(opt.Repo, commit, r)
	}
	if opt.Collect == "none" {
		return nil, inputf("no report files for %s and --collect none", side)
	}
	specs, err := c.collectorSpecs()
	if err != nil {
		return nil, err
	}
	if len(specs) == 0 {
		return nil, inputf("no collectors for %s: none in %s and none detected from BASE's tree (%s)%s", side, config.FileName, collect.LookedFor, c.p.rejected())
	}
	memo := commit.String()
	if sc != nil && sc.sig != "" {
		memo += " " + sc.sig
	}
	c.p.mu.Lock()
	m := c.p.measured[memo]
	c.p.mu.Unlock()
	if m != nil {
		return m, nil
	}
	var cached bool
	if sc != nil && sc.narrowed() {
		m, cached, err = c.measureScoped(c.ctx, sideIdx, side, commit, sc, baseM)
	} else {
		m, cached, err = collect.Measure(c.ctx, opt.Repo, opt.RepoDir, commit, specs, opt.Cache, c.runOptions(side))
	}
	if err != nil {
		if c.ctx.Err() != nil {
			return nil, err
		}
		return nil, inputf("measure %s %s: %w", side, short(commit), err)
	}
	if cached {
		c.note("", fmt.Sprintf("%s %s: metrics from the cache", side, short(commit)))
	}
	c.p.mu.Lock()
	c.p.measured[memo] = m
	c.p.mu.Unlock()
	return m, nil
}

// runOptions are one side's run options: its progress, and a home and
// temporary directories of its own, so BASE's, HEAD's and the tamper
// check's runs cannot see what another left behind.
func (c *comparison) runOptions(side string) collect.RunOptions {
	o := collect.RunOptions{Environ: c.p.opt.Environ}
	if c.p.opt.Progress != nil {
		o = c.p.opt.Progress(side)
	}
	o.Isolate = true
	// What HEAD's run fails to report is the change's doing: a finding,
	// with the rest of the report kept (collect.RunOptions).
	o.ReportMissingMeasured = side == "HEAD"
	return o
}

// readReports parses report files given as KIND=GLOB (relative to dir); a
// glob's files are merged, as shards of a CI matrix are.
func readReports(ctx context.Context, dir string, reports []ReportGlob) (*collectors.Result, error) {
	var results []*collectors.Result
	budget := collect.NewReportBudget()
	for _, ra := range reports {
		pattern := ra.Glob
		// A relative glob reads inside the repository (where the change
		// may have committed links pointing out of it); an absolute one,
		// which the workflow gave, inside its own fixed directory.
		root := dir
		if filepath.IsAbs(pattern) {
			root = staticPrefix(pattern)
		} else if dir != "" {
			pattern = filepath.Join(dir, pattern)
		}
		if root == "" {
			root, _ = os.Getwd()
		}
		files, err := filepath.Glob(pattern)
		if err != nil {
			return nil, inputf("report %s=%s: %v", ra.Kind, ra.Glob, err)
		}
		if len(files) == 0 {
			return nil, inputf("report %s=%s: no file matches", ra.Kind, ra.Glob)
		}
		sort.Strings(files)
		p, err := collectors.New(ra.Kind)
		if err != nil {
			return nil, inputErr(err)
		}
		for _, f := range files {
			r, err := parseReportFile(ctx, budget, p, f, root)
			if err != nil {
				return nil, inputErr(err)
			}
			results = append(results, r)
		}
	}
	return collectors.Merge(results...), nil
}

func parseReportFile(ctx context.Context, budget *collect.ReportBudget, p collectors.Parser, file, root string) (*collectors.Result, error) {
	f, err := collect.OpenReport(ctx, file, file, root)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := budget.Spend(file, collect.ReportSize(f)); err != nil {
		return nil, err
	}
	return p.Parse(file, f)
}

// staticPrefix is the directory part of a glob before its first pattern
// character.
func staticPrefix(pattern string) string {
	i := strings.IndexAny(pattern, "*?[")
	if i < 0 {
		return filepath.Dir(pattern)
	}
	return filepath.Dir(pattern[:i] + "x")
}

// Measure measures one commit with the pipeline's collectors, as Compare
// measures an end (the loop's baseline at start); side names it in errors
// and progress.
func (p *Pipeline) Measure(ctx context.Context, side string, commit plumbing.Hash) (*collect.Measurement, error) {
	c := &comparison{p: p, ctx: ctx, base: commit, head: commit}
	return c.measure(side, baseSide, commit, nil, nil, nil)
}

func testsAt(m *collect.Measurement) int {
	if m == nil || m.Result == nil || m.Result.Tests == nil {
		return 0
	}
	return m.Result.Tests.Len()
}

// rejected says why detection turned collectors down ("; collector pytest:
// tool pytest is not installed"), or "" when it found nothing to turn down.
func (p *Pipeline) rejected() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.specNote) == 0 {
		return ""
	}
	return "; " + strings.Join(p.specNote, "; ")
}
