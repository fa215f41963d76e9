package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/collectors"
	"github.com/ralph-gate/ralph-gate/internal/analyze"
	"github.com/ralph-gate/ralph-gate/internal/collect"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitrange"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/report"
)

// reportFlag collects repeated KIND=GLOB flags.
type reportFlag []reportArg

type reportArg struct{ kind, glob string }

func (r *reportFlag) String() string { return fmt.Sprint(*r) }

func (r *reportFlag) Set(v string) error {
	kind, glob, ok := strings.Cut(v, "=")
	if !ok || kind == "" || glob == "" {
		return fmt.Errorf("want KIND=GLOB, e.g. junit='out/*.xml' (got %q)", v)
	}
	if _, err := collectors.New(kind); err != nil {
		return err
	}
	*r = append(*r, reportArg{strings.ToLower(kind), glob})
	return nil
}

type compareFlags struct {
	commonFlags
	config       string
	reports      reportFlag
	baseReports  reportFlag
	collectMode  string
	noCache      bool
	allowMissing bool
	noTamper     bool
	// staticOnly skips measuring (the action with collect none and no report
	// files): the report has the diff analysis and no metrics.
	staticOnly bool
	// environ is the collectors' environment (nil for the process's): the
	// action leaves its token out, since the collectors run HEAD's code.
	environ []string
}

func runCompare(ctx context.Context, args []string, env Env) error {
	fs := newFlagSet("compare", env)
	var cf compareFlags
	cf.register(fs)
	fs.StringVar(&cf.config, "config", "", "configuration file (default: .ralph-gate.yml at BASE)")
	fs.Var(&cf.reports, "report", "KIND=GLOB report files for HEAD")
	fs.Var(&cf.baseReports, "base-report", "KIND=GLOB report files for BASE")
	fs.StringVar(&cf.collectMode, "collect", "auto", "auto or none")
	fs.BoolVar(&cf.noCache, "no-cache", false, "measure again even when cached")
	fs.BoolVar(&cf.allowMissing, "allow-missing", false, "report missing measurements as notes")
	fs.BoolVar(&cf.noTamper, "no-tamper-check", false, "skip the tamper check")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("compare", err, env)
	}
	format, err := report.ParseFormat(orDefault(cf.format, "text"))
	if err != nil {
		return usagef("compare: --format: %v", err)
	}
	var failOn *gate.Severity
	if cf.failOn != "" {
		s, err := gate.ParseSeverity(cf.failOn)
		if err != nil {
			return usagef("compare: --fail-on: %v", err)
		}
		failOn = &s
	}
	if cf.collectMode != "auto" && cf.collectMode != "none" {
		return usagef("compare: --collect: want auto or none (got %q)", cf.collectMode)
	}
	if len(pos) > 2 {
		return usagef("compare: too many arguments: want at most BASE and HEAD, got %d", len(pos))
	}
	rep, cfg, err := compareRange(ctx, env, cf, at(pos, 0), at(pos, 1))
	if err != nil {
		return err
	}
	return finish(rep, cfg, failOn, format, cf.commonFlags, env)
}

// compareRange builds compare's report of baseRev..headRev ("" for the
// defaults) without deciding the verdict or rendering it: runCompare and
// runAction share it.
func compareRange(ctx context.Context, env Env, cf compareFlags, baseRev, headRev string) (*gate.Report, *config.Config, error) {
	dir := cf.repo
	if dir == "" {
		dir = orDefault(env.Dir, ".")
	}
	repo, err := gitrepo.Open(dir)
	if err != nil {
		return nil, nil, classifyGit(err)
	}
	head, err := repo.Resolve(orDefault(headRev, "HEAD"))
	if err != nil {
		return nil, nil, classifyGit(err)
	}
	var base plumbing.Hash
	if baseRev != "" {
		if base, err = repo.Resolve(baseRev); err != nil {
			return nil, nil, classifyGit(err)
		}
	} else if base, err = defaultBase(repo, head); err != nil {
		return nil, nil, err
	}
	cfg, err := compareConfig(repo, base, cf.config, env)
	if err != nil {
		return nil, nil, err
	}
	res, err := gitrange.Analyze(ctx, repo, base, head, cfg, progressFunc(env))
	if err != nil {
		return nil, nil, classifyGit(err)
	}
	cmp := &comparison{ctx: ctx, env: env, repo: repo, cfg: cfg, flags: cf, base: base, head: head, notes: res.Notes}
	if !cf.noCache {
		if cmp.cache, err = collect.OpenCache(repo); err != nil {
			return nil, nil, err
		}
	}
	var baseM, headM *collect.Measurement
	if !cf.staticOnly {
		if baseM, headM, err = cmp.measureBoth(); err != nil {
			return nil, nil, err
		}
	}
	findings := res.Findings
	if baseM != nil && headM != nil {
		changed, err := changedPaths(repo, base, head)
		if err != nil {
			return nil, nil, classifyGit(err)
		}
		findings = append(findings, analyze.MetricFindings(baseM.Result, headM.Result, findings, changed, cfg.Compare)...)
		tamper, err := cmp.tamperCheck(baseM, headM)
		if err != nil {
			return nil, nil, err
		}
		findings = append(findings, tamper...)
	}
	attributeMeasured(findings, res.Commits)
	cfg.Apply(findings)
	analyze.Sort(findings)
	rep := newReport(env, base.String(), head.String(), findings, res.Commits, cmp.notes)
	if !cf.staticOnly {
		rep.Metrics = &gate.MetricsPair{Base: metricsOf(baseM), Head: metricsOf(headM)}
	}
	return rep, cfg, nil
}

// attributeMeasured gives measured findings the commit of the static finding on
// the same test, or the range's only commit.
func attributeMeasured(fs []gate.Finding, commits []gate.Commit) {
	byTest := map[string]string{}
	for _, f := range fs {
		if f.Commit != "" && f.Test != "" {
			byTest[testLeaf(f.Test)] = f.Commit
		}
	}
	for i := range fs {
		f := &fs[i]
		if f.Commit != "" || f.Evidence != gate.EvidenceMeasured {
			continue
		}
		if c, ok := byTest[testLeaf(f.Test)]; ok && f.Test != "" {
			f.Commit = c
		} else if len(commits) == 1 {
			f.Commit = commits[0].SHA
		}
	}
}

// testLeaf is a test id without its package or suite: "example.com/calc.TestMul"
// and "TestMul" name the same test.
func testLeaf(id string) string {
	if i := strings.LastIndexAny(id, "./"); i >= 0 && !strings.Contains(id[:i], " > ") {
		if j := strings.LastIndex(id, "."); j >= 0 {
			return id[j+1:]
		}
	}
	return id
}

func at(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return ""
}

func metricsOf(m *collect.Measurement) *gate.Metrics {
	if m == nil {
		return &gate.Metrics{}
	}
	return &m.Metrics
}

// compareConfig reads --config when given (a file the CI owner controls), else
// .ralph-gate.yml from BASE.
func compareConfig(repo *gitrepo.Repo, base plumbing.Hash, file string, env Env) (*config.Config, error) {
	if file == "" {
		return loadConfig(repo, base)
	}
	p := file
	if !filepath.IsAbs(p) && env.Dir != "" {
		p = filepath.Join(env.Dir, p)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, inputErr(fmt.Errorf("read config %s: %w", file, errors.Unwrap(err)))
	}
	cfg, err := config.Parse(file, data)
	if err != nil {
		return nil, inputErr(err)
	}
	return cfg, nil
}

// comparison holds what measuring both ends of a compare needs.
type comparison struct {
	ctx        context.Context
	env        Env
	repo       *gitrepo.Repo
	cfg        *config.Config
	flags      compareFlags
	base, head plumbing.Hash
	cache      *collect.Cache
	specs      []config.Collector
	mu         sync.Mutex
	notes      []gate.Note
}

func (c *comparison) note(file, msg string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.notes = append(c.notes, gate.Note{File: file, Message: msg})
}

// measureBoth obtains the metrics of BASE and HEAD, from report files or by
// running the collectors, both ends at once. Missing data is an input error
// unless --allow-missing.
func (c *comparison) measureBoth() (*collect.Measurement, *collect.Measurement, error) {
	needRun := (len(c.flags.baseReports) == 0 || len(c.flags.reports) == 0) && c.flags.collectMode == "auto"
	if needRun {
		specs, notes, err := collect.Collectors(c.repo, c.base, c.cfg)
		if err != nil {
			return nil, nil, err
		}
		for _, n := range notes {
			c.note("", n)
		}
		c.specs = specs
	}
	var (
		wg        sync.WaitGroup
		ms        [2]*collect.Measurement
		errs      [2]error
		progress  = c.progress()
		sides     = [2]plumbing.Hash{c.base, c.head}
		reports   = [2]reportFlag{c.flags.baseReports, c.flags.reports}
		sideNames = [2]string{"BASE", "HEAD"}
	)
	for i := range sides {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ms[i], errs[i] = c.measure(sideNames[i], sides[i], reports[i], progress)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err == nil && (ms[i] == nil || ms[i].Result == nil || ms[i].Result.Tests == nil || ms[i].Result.Tests.Len() == 0) {
			err = fmt.Errorf("no test results at %s %s: no tests ran, which is never a pass (give --%sreport, configure collectors in %s, or pass --allow-missing)",
				sideNames[i], sides[i].String()[:12], map[int]string{0: "base-", 1: ""}[i], config.FileName)
			err = inputErr(err)
		}
		if err == nil {
			continue
		}
		if c.flags.allowMissing {
			c.note("", "missing data, allowed by --allow-missing: "+err.Error())
			ms[i] = nil
			continue
		}
		return nil, nil, err
	}
	return ms[0], ms[1], nil
}

func (c *comparison) measure(side string, commit plumbing.Hash, reports reportFlag, progress func(string) collect.RunOptions) (*collect.Measurement, error) {
	if len(reports) > 0 {
		r, err := readReports(c.env, reports)
		if err != nil {
			return nil, err
		}
		return collect.FromReports(c.repo, commit, r)
	}
	if c.flags.collectMode == "none" {
		return nil, inputErr(fmt.Errorf("no report files for %s and --collect none", side))
	}
	if len(c.specs) == 0 {
		return nil, inputErr(fmt.Errorf("no collectors for %s: none detected from BASE's tree and none in %s", side, config.FileName))
	}
	m, cached, err := collect.Measure(c.ctx, c.repo, c.repo.Root(), commit, c.specs, c.cache, progress(side))
	if err != nil {
		return nil, inputErr(fmt.Errorf("measure %s %s: %w", side, commit.String()[:12], err))
	}
	if cached {
		c.note("", fmt.Sprintf("%s %s: metrics from the cache", side, commit.String()[:12]))
	}
	return m, nil
}

// readReports parses report files given as KIND=GLOB (relative to the working
// directory); a glob's files are merged, as shards of a CI matrix are.
func readReports(env Env, reports reportFlag) (*collectors.Result, error) {
	var results []*collectors.Result
	for _, ra := range reports {
		pattern := ra.glob
		if !filepath.IsAbs(pattern) && env.Dir != "" {
			pattern = filepath.Join(env.Dir, pattern)
		}
		files, err := filepath.Glob(pattern)
		if err != nil {
			return nil, inputErr(fmt.Errorf("report %s=%s: %v", ra.kind, ra.glob, err))
		}
		if len(files) == 0 {
			return nil, inputErr(fmt.Errorf("report %s=%s: no file matches", ra.kind, ra.glob))
		}
		sort.Strings(files)
		p, _ := collectors.New(ra.kind)
		for _, f := range files {
			r, err := parseReportFile(p, f)
			if err != nil {
				return nil, inputErr(err)
			}
			results = append(results, r)
		}
	}
	return collectors.Merge(results...), nil
}

func parseReportFile(p collectors.Parser, file string) (*collectors.Result, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("read report %s: %w", file, errors.Unwrap(err))
	}
	defer f.Close()
	return p.Parse(file, f)
}

// progress shows which collector runs at which end on a terminal.
func (c *comparison) progress() func(string) collect.RunOptions {
	tty := isTerminal(c.env.Stderr)
	var mu sync.Mutex
	return func(side string) collect.RunOptions {
		if !tty {
			return collect.RunOptions{Environ: c.flags.environ}
		}
		return collect.RunOptions{Environ: c.flags.environ, Progress: func(collector, phase string, elapsed time.Duration) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(c.env.Stderr, "\r\033[K%s: %s %s %s", side, collector, phase, elapsed.Round(time.Second))
		}}
	}
}

// changedPaths lists the paths BASE..HEAD changed (new paths, and old paths of
// deletions).
func changedPaths(repo *gitrepo.Repo, base, head plumbing.Hash) ([]string, error) {
	diff, err := repo.Diff(base, head)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, d := range diff {
		if d.To.Path != "" {
			out = append(out, d.To.Path)
		} else {
			out = append(out, d.From.Path)
		}
	}
	return out, nil
}
