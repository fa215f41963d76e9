package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/collectors"
	"github.com/ralph-gate/ralph-gate/internal/collect"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/pipeline"
	"github.com/ralph-gate/ralph-gate/internal/report"
	"github.com/ralph-gate/ralph-gate/internal/terminal"
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
	allPackages  bool
	allowMissing bool
	noTamper     bool
	noWitness    bool
	// mutation is --mutation (or --mutation=false): unset, the
	// configuration's mutation.enabled decides, off by default.
	mutation optBool
	// staticOnly skips measuring (the action with collect none and no report
	// files): the report has the diff analysis and no metrics.
	staticOnly bool
	// environ is the collectors' environment (nil for the process's): the
	// action leaves its token out, since the collectors run HEAD's code.
	environ []string
}

func init() { register("compare", compareHelp, runCompare) }

func runCompare(ctx context.Context, args []string, env Env) error {
	fs := newFlagSet("compare", env)
	var cf compareFlags
	cf.register(fs)
	fs.StringVar(&cf.config, "config", "", "use `FILE` instead of .ralph-gate.yml at BASE")
	fs.Var(&cf.reports, "report", "HEAD's report files, as `KIND=GLOB` (repeatable)")
	fs.Var(&cf.baseReports, "base-report", "BASE's report files, as `KIND=GLOB` (repeatable)")
	fs.StringVar(&cf.collectMode, "collect", "auto", "whether to run the collectors for an end without reports, `auto|none` (default auto)")
	fs.BoolVar(&cf.noCache, "no-cache", false, "measure again even when a measurement is cached")
	fs.BoolVar(&cf.allPackages, "all-packages", false, "measure every package, not only those the range affects")
	fs.BoolVar(&cf.allowMissing, "allow-missing", false, "turn missing measurements into notes")
	fs.BoolVar(&cf.noTamper, "no-tamper-check", false, "do not run BASE's tests against HEAD's code")
	fs.BoolVar(&cf.noWitness, "no-witness", false, "do not run HEAD's new and edited tests against BASE's code")
	fs.Var(&cf.mutation, "mutation", "mutate the changed lines and run the affected tests against each mutant")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("compare", err, env)
	}
	format, err := report.ParseFormat(orDefault(cf.format, "text"))
	if err != nil {
		return usagef("compare: --format: %v", err)
	}
	failOn := cf.failOn.Value()
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
// defaults) without deciding the verdict or rendering it: compare, the
// action and the pre-push hook share it, and all measure through the one
// pipeline the loop's record uses too.
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
	opt := pipeline.Options{
		Repo: repo, Config: cfg, Dir: env.Dir, Collect: cf.collectMode,
		Reports: globs(cf.reports), BaseReports: globs(cf.baseReports),
		AllowMissing: cf.allowMissing, NoTamper: cf.noTamper, NoWitness: cf.noWitness,
		Mutation: cf.mutation.or(cfg.Mutation.MutationOn(false)), StaticOnly: cf.staticOnly, AllPackages: cf.allPackages,
		Environ: cf.environ, Progress: collectProgress(env, cf.environ), AnalyzeProgress: progressFunc(env),
	}
	if !cf.noCache {
		if opt.Cache, err = openCache(env, repo); err != nil {
			return nil, nil, err
		}
	}
	res, err := pipeline.New(opt).Compare(ctx, base, head)
	if err != nil {
		return nil, nil, classifyGit(err)
	}
	return res.Report(gate.Tool{Name: "ralph-gate", Version: env.Version}, !cf.staticOnly), cfg, nil
}

func globs(r reportFlag) []pipeline.ReportGlob {
	var out []pipeline.ReportGlob
	for _, a := range r {
		out = append(out, pipeline.ReportGlob{Kind: a.kind, Glob: a.glob})
	}
	return out
}

func at(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return ""
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

// collectProgress shows which collector runs at which end on a terminal.
func collectProgress(env Env, environ []string) func(string) collect.RunOptions {
	tty := terminal.Is(env.Stderr)
	var mu sync.Mutex
	return func(side string) collect.RunOptions {
		if !tty {
			return collect.RunOptions{Environ: environ}
		}
		return collect.RunOptions{Environ: environ, Progress: func(collector, phase string, elapsed time.Duration) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(env.Stderr, "\r\033[K%s: %s %s %s", side, collector, phase, elapsed.Round(time.Second))
		}}
	}
}

// optBool is a boolean flag that knows whether it was given: unset, the
// configuration decides.
type optBool struct{ set, v bool }

func (b *optBool) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("want true or false, not %q", s)
	}
	b.set, b.v = true, v
	return nil
}

func (b *optBool) String() string {
	if b == nil || !b.set {
		return ""
	}
	return strconv.FormatBool(b.v)
}

func (b *optBool) IsBoolFlag() bool { return true }

// or is the flag's value when given, else def.
func (b *optBool) or(def bool) bool {
	if b.set {
		return b.v
	}
	return def
}

// ptr is the flag's value when given, else nil.
func (b *optBool) ptr() *bool {
	if !b.set {
		return nil
	}
	v := b.v
	return &v
}
