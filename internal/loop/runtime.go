package loop

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/errkind"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/collectors"
	"github.com/ralph-gate/ralph-gate/internal/collect"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/pipeline"
)

// Env is what the loop operations work with.
type Env struct {
	Repo  *gitrepo.Repo
	Store *state.Store
	// Cache keeps measurements by tree; nil measures every time.
	Cache *collect.Cache
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Progress, when set, is told what record is doing (for a terminal).
	Progress func(string)
	// AllPackages measures every package of every iteration; otherwise
	// HEAD runs the packages the iteration can affect and takes the others'
	// results from the measurement it is compared with.
	AllPackages bool
	// MutationByDefault is whether the loop mutates the changed lines when
	// the configuration's mutation.enabled does not say (run: yes; record:
	// no), and Mutation, when set, is --mutation or --no-mutation, which
	// win over both.
	MutationByDefault bool
	Mutation          *bool
	// Collect overrides the loop's collect setting (auto, none) when set.
	Collect string
	// CollectOutput receives the collectors' standard error when set.
	CollectOutput func() collect.RunOptions
	// Decider names who makes a human decision (approve, reject, abort):
	// --by NAME, or the user at a terminal. It is recorded with the decision.
	Decider string
	// Agent is how the agent run by `ralph-gate run` ended in the iteration
	// being recorded (nil: record was called by a person or a script).
	Agent *state.AgentRun
	// Landed is when the iteration's commit landed, as run saw it (zero:
	// HEAD's committer time is used); CommitMS is run's time committing it.
	Landed   time.Time
	CommitMS int64
	// AgentEnv is added to the agent's environment: the user's credentials
	// ralph-gate withheld from its own (the agent needs its API key; the
	// code under test never gets them).
	AgentEnv []string
}

// byDecider is the note that names who decided; "" when nobody was named.
func (e *Env) byDecider() string {
	if e.Decider == "" {
		return ""
	}
	return "by " + e.Decider
}

func (e *Env) now() time.Time {
	if e.Now != nil {
		return e.Now().UTC()
	}
	return time.Now().UTC()
}

func (e *Env) progress(format string, args ...any) {
	if e.Progress != nil {
		e.Progress(fmt.Sprintf(format, args...))
	}
}

// TagName is the tag of an iteration: ralph/{loop_id}/iter-NNN.
func TagName(id string, n int) string { return fmt.Sprintf("ralph/%s/iter-%03d", id, n) }

// SnapshotPath is an iteration's snapshot file, relative to the work tree.
func SnapshotPath(id string, n int) string {
	return fmt.Sprintf("%s/loops/%s/iterations/iteration-%03d.json", state.RalphDir, id, n)
}

// InputError is a problem the user can fix (exit 2): a bad flag value, a
// state that does not allow the operation, a dirty work tree.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

// Kind: input the user can fix.
func (e *InputError) Kind() errkind.Kind { return errkind.Input }

func inputf(format string, args ...any) error { return &InputError{Msg: fmt.Sprintf(format, args...)} }

// loadConfig reads .ralph-gate.yml at a commit (the default when absent).
func loadConfig(repo *gitrepo.Repo, at plumbing.Hash) (*config.Config, error) {
	cfg, err := config.AtCommit(repo, at, "the loop's baseline")
	var invalid *config.InvalidError
	if errors.As(err, &invalid) {
		return nil, &InputError{Msg: err.Error()}
	}
	return cfg, err
}

// measurement is one end's measured data, nil fields when not measured.
type measurement struct {
	result  *collectors.Result
	metrics gate.Metrics
	// failing, when set, are the failing tests of a measurement reused
	// from an earlier iteration (a no-op iteration has no result of its own).
	failing []string
}

func (m *measurement) failingTests() []string {
	if m.failing != nil {
		return m.failing
	}
	return failingTests(m.result)
}

// measuredTests reports whether the measurement has test results.
func (m *measurement) measuredTests() bool {
	return m.failing != nil || m.result != nil && m.result.Tests != nil
}

// pipeline returns the measuring pipeline of one record or start: the one
// compare, the action and the hook use, with the loop's collectors (nil:
// collect is none, nothing runs), its cache and its configuration.
func (e *Env) pipeline(cfg *config.Config, specs []config.Collector) *pipeline.Pipeline {
	return pipeline.New(pipeline.Options{
		Repo: e.Repo, RepoDir: e.Store.Root, Config: cfg, Specs: specs, Cache: e.Cache,
		StaticOnly: specs == nil, AllowMissing: true, AllPackages: e.AllPackages, Complete: true,
		Mutation: e.mutationOn(cfg), NetMutationOnly: true,
		Progress: func(string) collect.RunOptions {
			if e.CollectOutput != nil {
				return e.CollectOutput()
			}
			return collect.RunOptions{}
		},
	})
}

// measure measures a commit through the pipeline (from the cache when it
// can), or only its tree statistics when collect is none.
func (e *Env) measure(ctx context.Context, pl *pipeline.Pipeline, commit plumbing.Hash, specs []config.Collector, what string) (*measurement, error) {
	if specs == nil {
		return e.treeMeasurement(commit)
	}
	e.progress("measuring %s (%s)", what, commit.String()[:7])
	m, err := pl.Measure(ctx, what, commit)
	if err != nil {
		return nil, err
	}
	return &measurement{result: m.Result, metrics: m.Metrics}, nil
}

// treeMeasurement is a commit's tree statistics alone (collect: none).
func (e *Env) treeMeasurement(commit plumbing.Hash) (*measurement, error) {
	stats, err := collect.TreeStats(e.Repo, commit)
	if err != nil {
		return nil, err
	}
	m := gate.Metrics{FileCount: &stats.Files, LinesOfCode: &stats.Lines, Complexity: &stats.Complexity}
	return &measurement{metrics: m}, nil
}

// measured turns a pipeline's measurement of an end into the loop's (tree
// statistics when nothing was measured).
func (e *Env) measured(m *collect.Measurement, commit plumbing.Hash) (*measurement, error) {
	if m == nil {
		return e.treeMeasurement(commit)
	}
	return &measurement{result: m.Result, metrics: m.Metrics}, nil
}

// specsFor returns the collectors a loop runs (nil for collect none).
func (e *Env) specsFor(mode string, baseline plumbing.Hash, cfg *config.Config) ([]config.Collector, []string, error) {
	if e.Collect != "" {
		mode = e.Collect
	}
	if mode == "none" {
		return nil, []string{"collectors are off (collect: none): tests, coverage and lint are not measured"}, nil
	}
	specs, notes, err := collect.Collectors(e.Repo, baseline, cfg)
	if err != nil {
		return nil, nil, err
	}
	if len(specs) == 0 {
		return nil, append(notes, "no collector was detected: tests, coverage and lint are not measured"), nil
	}
	return specs, notes, nil
}

func failingTests(r *collectors.Result) []string {
	if r == nil || r.Tests == nil {
		return nil
	}
	out := []string{}
	for t := range r.Tests.All() {
		if t.Outcome == collectors.Failed || t.Outcome == collectors.Errored {
			out = append(out, t.ID)
		}
	}
	sort.Strings(out)
	return out
}

func passingTests(r *collectors.Result) []string {
	if r == nil || r.Tests == nil {
		return nil
	}
	var out []string
	for t := range r.Tests.All() {
		if t.Outcome == collectors.Passed {
			out = append(out, t.ID)
		}
	}
	sort.Strings(out)
	return out
}

func testResults(m gate.Metrics) *state.TestResults {
	if m.Tests == nil {
		return nil
	}
	return &state.TestResults{Total: m.Tests.Total, Passed: m.Tests.Passed, Failed: m.Tests.Failed, Skipped: m.Tests.Skipped, Coverage: m.CoveragePercentage}
}

// StartOptions are start's inputs.
type StartOptions struct {
	Task, Completion, Slug  string
	MaxIterations           *int
	TimeoutMinutes          *int
	NoFeedback, Interactive bool
	Owner                   string
	PID                     int
}

// Start creates a loop at HEAD: it measures the baseline, runs the
// completion command once, tags HEAD iter-000, writes state.json and the
// registry, and excludes .aiwg/ralph/ from git.
func Start(ctx context.Context, e *Env, opt StartOptions) (*state.State, []string, error) {
	now := e.now()
	head, err := e.Repo.Resolve("HEAD")
	if err != nil {
		return nil, nil, err
	}
	if err := e.roomForALoop(); err != nil {
		return nil, nil, err
	}
	cfg, err := loadConfig(e.Repo, head)
	if err != nil {
		return nil, nil, err
	}
	set, aiwgNotes, err := e.startSettings(head, cfg, opt)
	if err != nil {
		return nil, nil, err
	}
	slug := opt.Slug
	if slug == "" {
		slug = state.Slug(opt.Task)
	}
	id, err := state.NewID(slug)
	if err != nil {
		return nil, nil, &InputError{Msg: "--slug: " + err.Error()}
	}
	specs, notes, err := e.specsFor(set.Collect, head, cfg)
	if err != nil {
		return nil, nil, err
	}
	base, err := e.measure(ctx, e.pipeline(cfg, specs), head, specs, "the baseline")
	if err != nil {
		return nil, nil, err
	}
	e.progress("running the completion command at the baseline")
	check := RunCompletionAt(ctx, e.Store.Root, head, opt.Completion, set.CompletionTimeoutDuration(), 0, now)
	st := newLoopState(id, e.Store.Root, opt, set, specs != nil, now)
	e.recordBaseline(st, head, base, check)
	if err := e.create(st, head, check, now); err != nil {
		return nil, nil, err
	}
	if check.Passed {
		notes = append(notes, "the completion command already passes at the baseline")
	}
	return st, append(aiwgNotes, notes...), nil
}

// roomForALoop refuses a new loop while MaxConcurrentLoops are active
// (not ended, not crashed) in the repository.
func (e *Env) roomForALoop() error {
	reg, err := e.Store.ReadRegistry()
	if err != nil {
		return err
	}
	active := 0
	var names []string
	for _, l := range reg.ActiveLoops {
		if snap, err := e.Store.Load(l.LoopID); err == nil && !snap.State.Status.Terminal() && !crashed(snap.State) {
			active++
			names = append(names, l.LoopID)
		}
	}
	if active >= state.MaxConcurrentLoops {
		return inputf("%d loops are active (%v), the most one repository may run at once; abort one first (ralph-gate abort --loop ID)", active, names)
	}
	return nil
}

// startSettings are the loop's settings: the defaults, then aiwg.yml (HEAD's,
// else the working tree's), then the configuration's loop section, then
// start's flags. The notes name the aiwg.yml keys ralph-gate does not read.
func (e *Env) startSettings(head plumbing.Hash, cfg *config.Config, opt StartOptions) (state.Settings, []string, error) {
	set := state.Defaults()
	var aiwgNotes []string
	aiwg := func(name string, data []byte) error {
		if err := set.ApplyAIWG(name, data); err != nil {
			return &InputError{Msg: err.Error()}
		}
		if unknown := state.UnknownAIWGKeys(data); len(unknown) > 0 {
			aiwgNotes = append(aiwgNotes, fmt.Sprintf("%s: ralph-gate does not read %s (AIWG's or misspelt; the keys it reads are in the README's Configuration)",
				name, strings.Join(limitStrings(unknown, 8), ", ")))
		}
		return nil
	}
	if data, err := e.Repo.ReadFile(head, "aiwg.yml"); err == nil {
		if err := aiwg("aiwg.yml (at "+head.String()[:12]+")", data); err != nil {
			return set, nil, err
		}
	} else if data, err := os.ReadFile(e.Store.Root + "/aiwg.yml"); err == nil {
		if err := aiwg("aiwg.yml", data); err != nil {
			return set, nil, err
		}
	}
	if err := set.ApplyConfig(config.FileName+" loop section", cfg.Loop); err != nil {
		return set, nil, &InputError{Msg: err.Error()}
	}
	if opt.MaxIterations != nil {
		if *opt.MaxIterations < 1 {
			return set, nil, inputf("--max-iterations must be at least 1 (got %d)", *opt.MaxIterations)
		}
		set.MaxIterations = *opt.MaxIterations
	}
	if opt.TimeoutMinutes != nil {
		if *opt.TimeoutMinutes < 0 {
			return set, nil, inputf("--timeout-minutes must not be negative (got %d)", *opt.TimeoutMinutes)
		}
		set.TimeoutMinutes = *opt.TimeoutMinutes
	}
	set.Normalize()
	return set, aiwgNotes, nil
}

// newLoopState is a running loop's state before its baseline is recorded.
func newLoopState(id, root string, opt StartOptions, set state.Settings, autoTest bool, now time.Time) *state.State {
	st := &state.State{
		Version: state.StateVersion, LoopID: id, Status: state.StatusRunning, Task: opt.Task, CompletionCriteria: opt.Completion,
		StartedAt: now, LastUpdated: now, Owner: opt.Owner, WorkingDirectory: root,
		Configuration: state.Configuration{MaxIterations: set.MaxIterations, Interactive: opt.Interactive, AutoTest: autoTest,
			CheckpointInterval: 1, ExecutionMode: "default"},
		Progress:           state.Progress{CompletionChecks: []state.CompletionCheck{}},
		IterationHistory:   []state.Iteration{},
		RegressionEvents:   []state.Regression{},
		ReinforcementLevel: set.Reinforcement,
		ReinforcementHist:  []state.LevelChange{{Timestamp: now, Iteration: 0, FromLevel: "OFF", ToLevel: set.Reinforcement, Reason: "Loop initialization"}},
		RecoveryHistory:    []state.Recovery{},
		DetectionEnabled:   true,
		DetectedPatterns:   []state.Pattern{},
	}
	if opt.PID > 0 {
		pid := opt.PID
		st.PID = &pid
	}
	if set.TimeoutMinutes > 0 {
		tm := set.TimeoutMinutes
		st.Configuration.TimeoutMinutes = &tm
	}
	st.RalphGate.Settings = set
	st.RalphGate.NoFeedback = opt.NoFeedback
	return st
}

// recordBaseline writes the baseline into the state: its metrics (AIWG's
// baseline_metrics, with what was not measured said so), its commit and
// tag, its failing tests, its completion check and its score.
func (e *Env) recordBaseline(st *state.State, head plumbing.Hash, base *measurement, check state.CompletionCheck) {
	now := st.StartedAt
	bm := base.metrics
	st.BaselineMetrics = state.Baseline{CapturedAt: now, TypescriptErrors: bm.TypescriptErrors, LintErrors: bm.LintErrors,
		LintWarnings: bm.LintWarnings, CustomMetrics: map[string]any{}}
	if bm.TestCount != nil {
		st.BaselineMetrics.TestCount = *bm.TestCount
	} else {
		st.BaselineMetrics.CustomMetrics["test_count_measured"] = false
	}
	if bm.CoveragePercentage != nil {
		st.BaselineMetrics.CoveragePercentage = *bm.CoveragePercentage
	} else {
		st.BaselineMetrics.CustomMetrics["coverage_measured"] = false
	}
	if bm.FileCount != nil {
		st.BaselineMetrics.FileCount, st.BaselineMetrics.LinesOfCode = *bm.FileCount, *bm.LinesOfCode
	}
	if bm.Complexity != nil {
		st.BaselineMetrics.CustomMetrics["complexity"] = *bm.Complexity
	}
	branch, _ := e.Repo.HeadBranch()
	set, noFeedback := st.RalphGate.Settings, st.RalphGate.NoFeedback
	st.RalphGate = state.Extra{
		BaselineCommit: head.String(), BaselineTag: TagName(st.LoopID, 0), LastCommit: head.String(), Branch: branch,
		BaselineFailing: failingTests(base.result), BaselineCompletion: &check,
		BaselineComplexity: bm.Complexity, BaselineTests: testResults(bm), BaselineCoverage: bm.CoveragePercentage,
		Settings: set, NoFeedback: noFeedback,
	}
	st.Progress.CompletionChecks = append(st.Progress.CompletionChecks, check)
	st.Progress.LastCompletionCheck = &check
	st.RalphGate.BaselineScore, st.RalphGate.BaselineBreakdown, _, _ = Score(ScoreInput{
		CompletionPassed: check.Passed, BaselineFailing: st.RalphGate.BaselineFailing, Passing: passingTests(base.result),
		Tests: testResults(bm), BaseLint: bm.LintErrors, BaseType: bm.TypescriptErrors, Lint: bm.LintErrors, Type: bm.TypescriptErrors,
		BaseComplexity: bm.Complexity, Complexity: bm.Complexity,
	}, set.Weights)
}

// create makes the loop exist: HEAD tagged iter-000, .aiwg/ralph/ kept out
// of git, state.json written, the registry updated and the start logged.
func (e *Env) create(st *state.State, head plumbing.Hash, check state.CompletionCheck, now time.Time) error {
	tag := st.RalphGate.BaselineTag
	if err := e.Repo.SetTag(tag, head); err != nil {
		return tagErr(err)
	}
	if err := state.Exclude(state.CommonGitDir(e.Repo.GitDir())); err != nil {
		return fmt.Errorf("add %s to info/exclude: %w", state.RalphDir, err)
	}
	if _, err := e.Store.Create(st, now); err != nil {
		return err
	}
	if err := e.Store.UpdateRegistry(now, func(r *state.Registry) error { r.Sync(st, now); return nil }); err != nil {
		return err
	}
	_ = e.Store.AppendLog(st.LoopID, hookEntry(now, "loop_start", st, 0, []string{
		fmt.Sprintf("baseline %s measured", head.String()[:7]), "tagged " + tag,
		fmt.Sprintf("completion command at the baseline: %s", passFail(check.Passed)),
	}))
	return nil
}

func passFail(ok bool) string {
	if ok {
		return "passed"
	}
	return "failed"
}

// crashed reports whether a running loop's controlling process is gone.
func crashed(st *state.State) bool {
	return st.Status == state.StatusRunning && st.PID != nil && !state.Alive(*st.PID)
}

// Crashed reports whether the loop's controlling process died while it ran:
// status shows such a loop as crashed.
func Crashed(st *state.State) bool { return crashed(st) }

// hookEntry is one hook-log.jsonl line (persistence-hooks.yaml's audit
// format).
func hookEntry(now time.Time, hook string, st *state.State, iteration int, outcomes []string) map[string]any {
	return map[string]any{
		"timestamp": now, "hook_name": hook, "loop_id": st.LoopID, "iteration": iteration,
		"agents_invoked": []string{"ralph-gate"}, "outcomes": outcomes,
		"state_changes": map[string]any{"status": st.Status, "reinforcement_level": st.ReinforcementLevel},
	}
}

// pipelineErr keeps the pipeline's input errors (no test results, a
// malformed report) input errors of the loop.
func pipelineErr(err error) error {
	var in *pipeline.InputError
	if errors.As(err, &in) {
		return &InputError{Msg: err.Error()}
	}
	return err
}

// limitStrings keeps the first n, saying how many more there were.
func limitStrings(s []string, n int) []string {
	if len(s) <= n {
		return s
	}
	return append(append([]string(nil), s[:n]...), fmt.Sprintf("and %d more", len(s)-n))
}

// tagErr turns a loop tag that exists at another commit into the user's
// problem to fix (exit 2, the tag named): ralph-gate never moves a tag it
// did not make, and someone made this one ahead of the iteration.
func tagErr(err error) error {
	if errors.Is(err, gitrepo.ErrTagExists) {
		return inputf("%v: ralph-gate did not make it and does not move it; look at it and remove it (git tag -d NAME) to go on", err)
	}
	return err
}

// mutationOn is whether the loop mutates the net change's lines: the
// flag, else the configuration, else the command's default.
func (e *Env) mutationOn(cfg *config.Config) bool {
	if e.Mutation != nil {
		return *e.Mutation
	}
	return cfg.Mutation.MutationOn(e.MutationByDefault)
}
