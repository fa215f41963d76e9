package loop

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/loop/agentrun"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// Start and its named steps: room for a loop, the settings, the state, the
// baseline, creating it.

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
	check := agentrun.RunCompletionAt(ctx, e.Store.Root, head, opt.Completion, set.CompletionTimeoutDuration(), 0, now)
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
