package pipeline

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/internal/analyze"
	"github.com/ralph-gate/ralph-gate/internal/collect"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitrange"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
)

// ReportGlob is one KIND=GLOB of compare's --report and --base-report.
type ReportGlob struct{ Kind, Glob string }

// Options say how a Pipeline measures. The zero value of each field is the
// default compare uses.
type Options struct {
	Repo *gitrepo.Repo
	// RepoDir is the directory temporary worktrees are added from (default
	// the repository's root).
	RepoDir string
	// Config is the gate's configuration, read from BASE (or --config).
	Config *config.Config
	// Dir is the directory relative report globs are read from ("" is the
	// process's working directory).
	Dir string
	// Reports and BaseReports are report files for HEAD and BASE: an end with
	// reports is read from them, not measured.
	Reports, BaseReports []ReportGlob
	// Collect is "auto" (run the collectors for an end without reports) or
	// "none".
	Collect string
	// Specs are the collectors to run; nil detects them from BASE's tree (or
	// takes the configuration's).
	Specs []config.Collector
	// Cache keeps measurements across runs; nil measures every time.
	Cache *collect.Cache
	// AllowMissing turns an end without test results into a note.
	AllowMissing bool
	// NoTamper switches the tamper check off (--no-tamper-check).
	NoTamper bool
	// NoWitness switches the fail-to-pass witness off (--no-witness).
	NoWitness bool
	// Mutation runs the diff-based mutation of the changed lines (the
	// caller decides: --mutation, mutation.enabled, run's default).
	Mutation bool
	// NetMutationOnly mutates in CompareNet only: a loop mutates the change
	// since its baseline, not each iteration's part of it again.
	NetMutationOnly bool
	// StaticOnly measures nothing: the report has the diff analysis only.
	StaticOnly bool
	// Environ is the collectors' environment (nil: the process's).
	Environ []string
	// Progress returns the run options (progress lines) for one side:
	// "BASE", "HEAD" or "tamper". Nil shows nothing.
	Progress func(side string) collect.RunOptions
	// AllPackages measures every package at both ends; otherwise only what
	// the range can affect runs (see scope).
	AllPackages bool
	// Complete measures every test at both ends even so: HEAD runs the
	// affected Go packages and takes the others' results from BASE's
	// measurement, whose inputs they share; the other test runners run
	// whole. The loop's iterations are scored on complete measurements.
	Complete bool
	// AnalyzeProgress is told how far the static analysis has got.
	AnalyzeProgress gitrange.Progress
}

// Pipeline compares ranges with one set of options. It remembers what it
// measured, so a loop that compares HEAD with its previous iteration and with
// its baseline measures HEAD once. Safe for concurrent use.
type Pipeline struct {
	opt Options

	mu sync.Mutex
	// measured remembers measurements by commit, and by scope for a
	// partial one.
	measured map[string]*collect.Measurement
	specs    []config.Collector
	detected bool
	specNote []string
}

// New returns a Pipeline for opt.
func New(opt Options) *Pipeline {
	if opt.Config == nil {
		opt.Config = config.Default()
	}
	if opt.Collect == "" {
		opt.Collect = "auto"
	}
	if opt.RepoDir == "" && opt.Repo != nil {
		opt.RepoDir = opt.Repo.Root()
	}
	return &Pipeline{opt: opt, measured: map[string]*collect.Measurement{}}
}

// Result is one comparison: the findings of the range, static and measured,
// attributed to commits, sorted and not yet decided.
type Result struct {
	Base, Head plumbing.Hash
	Findings   []gate.Finding
	Commits    []gate.Commit
	Notes      []gate.Note
	// BaseM and HeadM are the ends' measurements; nil when not measured
	// (StaticOnly, or missing and allowed).
	BaseM, HeadM *collect.Measurement
	// Tamper says whether the tamper check ran, and why not.
	Tamper gate.TamperCheck
	// Witness is the fail-to-pass witness: which new and edited tests fail
	// on BASE's code; nil when nothing was measured.
	Witness *gate.Witness
	// ChangedLines is HEAD's changed-line coverage; nil when HEAD measured
	// no coverage.
	ChangedLines *gate.ChangedLines
	// Mutation is the diff-based mutation; nil when it was not asked for.
	Mutation *gate.Mutation
	// Scope says what was measured when not everything ran (affected-only
	// measuring); also among Notes.
	Scope []string
}

// Metrics returns both ends' metrics for the report; nil when nothing was
// measured.
func (r *Result) Metrics() *gate.MetricsPair {
	if r.BaseM == nil && r.HeadM == nil {
		return nil
	}
	return &gate.MetricsPair{Base: metricsOf(r.BaseM), Head: metricsOf(r.HeadM)}
}

// Report builds the contract's report of the result (verdict not decided).
func (r *Result) Report(tool gate.Tool, measured bool) *gate.Report {
	rep := &gate.Report{
		Schema: gate.Schema, Tool: tool, Base: r.Base.String(), Head: r.Head.String(),
		Commits: r.Commits, Findings: r.Findings, Notes: r.Notes,
	}
	if rep.Findings == nil {
		rep.Findings = []gate.Finding{}
	}
	if rep.Commits == nil {
		rep.Commits = []gate.Commit{}
	}
	if measured {
		rep.Metrics = r.Metrics()
		if rep.Metrics == nil {
			rep.Metrics = &gate.MetricsPair{Base: &gate.Metrics{}, Head: &gate.Metrics{}}
		}
		t := r.Tamper
		rep.TamperCheck = &t
		rep.Witness = r.Witness
		rep.Mutation = r.Mutation
		rep.ChangedLineCoverage = r.ChangedLines
	}
	return rep
}

// Compare compares base..head: every commit of the range and the net change
// are analyzed, both ends measured and compared, and the tamper check run.
func (p *Pipeline) Compare(ctx context.Context, base, head plumbing.Hash) (*Result, error) {
	res, err := gitrange.Analyze(ctx, p.opt.Repo, base, head, p.opt.Config, p.opt.AnalyzeProgress)
	if err != nil {
		return nil, err
	}
	return p.measureAndMerge(ctx, base, head, res.Findings, res.Commits, res.Notes, p.opt.Mutation && !p.opt.NetMutationOnly)
}

// CompareNet compares only the net change base..head (no per-commit pass):
// what a loop needs against its baseline, at a cost that does not grow with
// the iterations in between.
func (p *Pipeline) CompareNet(ctx context.Context, base, head plumbing.Hash) (*Result, error) {
	fs, notes, err := gitrange.Net(ctx, p.opt.Repo, base, head, p.opt.Config)
	if err != nil {
		return nil, err
	}
	return p.measureAndMerge(ctx, base, head, fs, nil, notes, p.opt.Mutation)
}

func (p *Pipeline) measureAndMerge(ctx context.Context, base, head plumbing.Hash, static []gate.Finding, commits []gate.Commit, notes []gate.Note, mutation bool) (*Result, error) {
	r := &Result{Base: base, Head: head, Commits: commits, Notes: notes}
	c := &comparison{p: p, ctx: ctx, base: base, head: head}
	findings := static
	if p.opt.StaticOnly {
		r.Tamper = gate.TamperCheck{Reason: "nothing is measured (collect: none and no report files)"}
		r.Witness = &gate.Witness{Reason: "nothing is measured (collect: none and no report files)"}
		if mutation {
			r.Mutation = &gate.Mutation{Reason: "nothing is measured (collect: none and no report files)"}
		}
	} else {
		// The code under test runs from here on: what it does to the
		// repository's git files is undone and reported when it is done.
		guard, err := collect.GuardRepo(p.opt.Repo.GitDir())
		if err != nil {
			return nil, err
		}
		defer func() {
			if changed, rerr := guard.Restore(); rerr != nil || len(changed) > 0 {
				r.Findings = append(r.Findings, repoChanged(guard.Dir(), changed, rerr))
				analyze.Sort(r.Findings)
			}
		}()
		baseM, headM, err := c.measureBoth()
		if err != nil {
			return nil, err
		}
		// Before the tamper check checks out again.
		if changed, rerr := guard.Check(); rerr != nil || len(changed) > 0 {
			findings = append(findings, repoChanged(guard.Dir(), changed, rerr))
		}
		r.BaseM, r.HeadM = baseM, headM
		c.baseM, c.headM = baseM, headM
		c.keepPackages(baseM)
		if baseM != nil && headM != nil {
			changed, err := c.changedPaths()
			if err != nil {
				return nil, err
			}
			if err := analyze.CoverageComparable(baseM.Result, headM.Result); err != nil {
				return nil, inputErr(err)
			}
			findings = append(findings, analyze.MetricFindings(baseM.Result, headM.Result, findings, changed, goTestMoves(p.opt.Repo, base, head, baseM.Result, headM.Result), p.opt.Config.Compare)...)
			for _, n := range analyze.MetricNotes(baseM.Result, headM.Result) {
				c.note(n.File, n.Message)
			}
			findings = append(findings, forgedGoTests(p.opt.Repo, head, headM.Result)...)
			cl, err := c.changedLineCoverage(headM)
			if err != nil {
				return nil, err
			}
			r.ChangedLines = cl
			findings = append(findings, analyze.ChangedLineFindings(cl, p.opt.Config.Coverage.ChangedLinesMin)...)
			tamper, status, err := c.tamperCheck(baseM, headM, findings)
			if err != nil {
				return nil, err
			}
			r.Tamper = status
			findings = append(findings, tamper...)
			wf, ws, err := c.witness(baseM, headM)
			if err != nil {
				return nil, err
			}
			r.Witness = &ws
			findings = append(findings, wf...)
			if mutation {
				mf, ms, err := c.mutation(headM, cl)
				if err != nil {
					return nil, err
				}
				r.Mutation = ms
				findings = append(findings, mf...)
			}
			ci, err := c.ciCommands()
			if err != nil {
				return nil, err
			}
			findings = append(findings, ci...)
		} else {
			r.Tamper = gate.TamperCheck{Reason: "an end was not measured (--allow-missing)"}
			r.Witness = &gate.Witness{Reason: "an end was not measured (--allow-missing)"}
			if mutation {
				r.Mutation = &gate.Mutation{Reason: "an end was not measured (--allow-missing)"}
			}
		}
	}
	locateGoTests(p.opt.Repo, []plumbing.Hash{head, base}, findings)
	attributeMeasured(findings, commits)
	p.opt.Config.Apply(findings)
	findings = analyze.Group(findings)
	analyze.Sort(findings)
	r.Findings = findings
	r.Notes = append(r.Notes, c.notes...)
	r.Scope = c.scopeNotes
	return r, nil
}

// comparison is one Compare's working state.
type comparison struct {
	p          *Pipeline
	ctx        context.Context
	base, head plumbing.Hash
	mu         sync.Mutex
	notes      []gate.Note
	scopeNotes []string
	// baseHashes remembers BASE's tree hashes by path for the package keys
	// (planning and keepPackages, never concurrently).
	baseHashes map[string]string
	// testingDirs remembers which directories hold non-test Go code that
	// imports "testing" at BASE (the tamper check's test support).
	testingDirs map[string]bool
	// jsSupport maps the JavaScript setup files the range changed to what
	// the tamper check runs for them (the whole suite).
	jsSupport map[string][]string
	// rustDev are the directories of crates only used as dev-dependencies
	// at BASE (rustDevSupport), once read.
	rustDev map[string]bool
	// jsImports is BASE's JavaScript import graph (jsTestOnly), once read.
	jsImports *jsImports
	// diff is BASE..HEAD's diff (rangeDiff), once read.
	diffMu  sync.Mutex
	diff    []gitrepo.Change
	diffErr error
	// goMod is the range's Go module path (goModule), once read.
	goMod *string
	// baseM and headM are the ends' measurements, once measured.
	baseM, headM *collect.Measurement
	// headTests is HEAD's test side over BASE's code (witness, pin
	// grading), once read.
	headTests *headTests
	// trees are the commits' file lists (tree), once read.
	trees map[plumbing.Hash][]gitrepo.Change
}

func (c *comparison) note(file, msg string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.notes = append(c.notes, gate.Note{File: file, Message: msg})
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

func metricsOf(m *collect.Measurement) *gate.Metrics {
	if m == nil {
		return &gate.Metrics{}
	}
	return &m.Metrics
}

// changedPaths lists the paths BASE..HEAD changed (new paths, and old paths of
// deletions).
func (c *comparison) changedPaths() ([]string, error) {
	diff, err := c.rangeDiff()
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

// rangeDiff is BASE..HEAD's diff, read once per comparison: scoping, the
// tamper check, the witness and the CI steps all read it. Callers do not
// change it.
func (c *comparison) rangeDiff() ([]gitrepo.Change, error) {
	c.diffMu.Lock()
	defer c.diffMu.Unlock()
	if c.diff == nil && c.diffErr == nil {
		c.diff, c.diffErr = c.p.opt.Repo.Diff(c.base, c.head)
	}
	return c.diff, c.diffErr
}

func short(h plumbing.Hash) string { return h.String()[:12] }

func sideFlag(side string) string {
	if side == "BASE" {
		return "--base-report"
	}
	return "--report"
}

// repoChanged is the finding for git files the code under test changed
// while the gate ran (ralph-gate put them back).
func repoChanged(gitDir string, changed []string, err error) gate.Finding {
	msg := fmt.Sprintf("the code run by the gate changed the repository's git files (%s in %s), which make git run programs (filters, fsmonitor, hooks): ralph-gate put them back, and none of it ran in the gate's own git commands", strings.Join(changed, ", "), gitDir)
	if err != nil {
		msg = fmt.Sprintf("the code run by the gate changed the repository's git files (%s in %s), and ralph-gate could not put them all back (%v): look at them before any other git command", strings.Join(changed, ", "), gitDir, err)
	}
	r := gate.RuleGitFilesChanged
	return gate.Finding{ID: r.ID, Type: r.Type, Severity: gate.SeverityHigh, Net: true,
		Rule: r.ID, File: ".git/" + filepath.ToSlash(firstOr(changed, "config")), Evidence: gate.EvidenceMeasured, Message: msg}
}

func firstOr(s []string, d string) string {
	if len(s) > 0 {
		return s[0]
	}
	return d
}
