package loop

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/errkind"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/collectors"
	"github.com/ralph-gate/ralph-gate/internal/collect"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
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
