package loop

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/errkind"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/collectors"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
)

// Decision is what record tells the loop to do next.
type Decision string

// Decisions; the CLI maps them to exit codes 0, 1 and 4.
const (
	Continue Decision = "continue"
	Blocked  Decision = "blocked"
	Stopped  Decision = "stop"
)

// Outcome is record's result.
type Outcome struct {
	Iteration *state.Iteration
	Decision  Decision
	Reason    string
	// Gate is the pending human gate's id when Decision is Blocked.
	Gate  string
	Notes []string
	// Overhead is record's own time without the collectors and the
	// completion command.
	Overhead time.Duration
	// Escalated is set on a block that recovery cannot answer by itself
	// (the retries are exhausted, or the loop is stuck): a human decides.
	Escalated bool
}

// BlockedError is returned by record when a human decision is pending.
type BlockedError struct{ Msg string }

func (e *BlockedError) Error() string { return e.Msg }

// Kind: the gate blocked the iteration.
func (e *BlockedError) Kind() errkind.Kind { return errkind.Blocked }

// Record records HEAD as the loop's next iteration. The caller holds the
// loop's lock and saves nothing itself: Record saves. It reads top to
// bottom as its steps: admit, measure, completion, history evidence,
// analyze, score, recover, decide, persist.
func Record(ctx context.Context, e *Env, snap *state.Snapshot, pid int) (*Outcome, error) {
	r, err := admit(e, snap, pid, false)
	if err != nil {
		return nil, err
	}
	if err := r.measure(ctx); err != nil {
		return nil, err
	}
	r.completion(ctx)
	if err := ctx.Err(); err != nil {
		// Interrupted: a completion command killed by it failed for no
		// reason of the code's; nothing is recorded.
		return nil, err
	}
	if err := r.historyEvidence(); err != nil {
		return nil, err
	}
	r.analyze()
	if err := r.score(); err != nil {
		return nil, err
	}
	r.recover()
	return r.persist(r.decide())
}

// RecordNoop records an iteration in which the agent changed nothing: HEAD
// is the loop's last commit, no commit is made. It is measured as the
// commit it stands on was (the iteration that recorded it, or the one a
// reject restored), counts toward the iteration limit, and its failure
// fingerprint (the same failing tests and completion output, and the
// agent's failure) feeds the stuck-loop rule.
func RecordNoop(ctx context.Context, e *Env, snap *state.Snapshot, pid int) (*Outcome, error) {
	r, err := admit(e, snap, pid, true)
	if err != nil {
		return nil, err
	}
	r.reuse()
	if err := r.score(); err != nil {
		return nil, err
	}
	r.recover()
	return r.persist(r.decide())
}

// recording is one record in progress: what each step found, for the steps
// after it.
type recording struct {
	e    *Env
	snap *state.Snapshot
	st   *state.State
	now  time.Time
	// start and external time record's own overhead (without the
	// collectors and the completion command).
	start    time.Time
	external time.Duration
	noop     bool

	n                    int
	head, prev, baseline plumbing.Hash
	cfg                  *config.Config
	set                  state.Settings
	specs                []config.Collector
	notes                []string
	changes              []gitrepo.Change

	// measure (reuse, for a no-op: src is the iteration it stands on, nil
	// for the baseline)
	headM      *measurement
	src        *state.Iteration
	findings   []gate.Finding // this iteration's (every commit and its net change)
	cumulative []gate.Finding // the net change since the baseline
	witness    *gate.Witness  // the net change's fail-to-pass witness
	mutation   *gate.Mutation // the net change's mutation
	// netBase and netHead are the baseline's and HEAD's test results in
	// the net comparison (nil: not measured).
	netBase, netHead *collectors.Tests
	// completion
	check state.CompletionCheck
	// analyze
	all, active, newFindings []gate.Finding
	// score
	it state.Iteration
	// recover
	regressed    []gate.Finding
	retrying     bool
	events       []state.Regression
	blockReasons []string
	rec          *state.Recovery
}

// admit checks that the loop can record now and takes it over from a
// controller that died.
func admit(e *Env, snap *state.Snapshot, pid int, noop bool) (*recording, error) {
	st := snap.State
	r := &recording{e: e, snap: snap, st: st, now: e.now(), start: time.Now(), noop: noop}
	if crashed(st) {
		// The controlling process died; whoever records now takes the loop
		// over: its own controller (pid > 0), or none (a person or a script
		// calling record, which leaves no process behind to watch).
		st.PID = nil
		if pid > 0 {
			st.PID = &pid
		}
	}
	switch {
	case len(st.PendingGates()) > 0:
		g := st.PendingGates()[0]
		return nil, &BlockedError{Msg: fmt.Sprintf("loop %s is waiting for a human decision on iteration %d (gate %s): run 'ralph-gate approve' or 'ralph-gate reject'",
			st.LoopID, g.Iteration, g.RecoveryID)}
	case st.Status == state.StatusPaused && st.RalphGate.StopReason != "":
		return nil, inputf("loop %s stopped at iteration %d without completion (%s); go on with 'ralph-gate resume --loop %s' (--extend N adds iterations) or end it with abort",
			st.LoopID, st.Iteration, st.RalphGate.StopReason, st.LoopID)
	case st.Status == state.StatusPaused:
		return nil, inputf("loop %s is paused; resume it first (ralph-gate resume --loop %s)", st.LoopID, st.LoopID)
	case st.Status != state.StatusRunning:
		return nil, inputf("loop %s is %s; start a new loop (ralph-gate start)", st.LoopID, st.Status)
	}
	head, err := e.Repo.Resolve("HEAD")
	if err != nil {
		return nil, err
	}
	r.head, r.prev = head, plumbing.NewHash(st.RalphGate.LastCommit)
	r.baseline = plumbing.NewHash(st.RalphGate.BaselineCommit)
	switch {
	case noop && head != r.prev:
		return nil, inputf("HEAD %s is not the loop's last commit %s: a no-op iteration changes nothing", head.String()[:7], r.prev.String()[:7])
	case !noop && head == r.prev:
		return nil, inputf("HEAD %s is already recorded (iteration %d of %s): commit the next iteration first", head.String()[:7], st.Iteration, st.LoopID)
	}
	r.n = st.Iteration + 1
	if r.cfg, err = loadConfig(e.Repo, r.baseline); err != nil {
		return nil, err
	}
	r.set = st.RalphGate.Settings
	return r, nil
}

// measure runs the one pipeline compare uses: this iteration against the
// previous one (every commit and the net change), and the net change since
// the baseline; HEAD is measured once, the other ends come from the cache
// when they were measured before.
func (r *recording) measure(ctx context.Context) error {
	e := r.e
	specs, notes, err := e.specsFor(r.set.Collect, r.baseline, r.cfg)
	if err != nil {
		return err
	}
	r.specs, r.notes = specs, notes
	if dirty, err := Dirty(ctx, e.Store.Root); err == nil && dirty != "" {
		r.notes = append(r.notes, fmt.Sprintf("the work tree has uncommitted changes (%s): the collectors and the completion command measured HEAD without them", dirty))
	}
	if r.changes, err = e.Repo.Diff(r.prev, r.head); err != nil {
		return err
	}
	pl := e.pipeline(r.cfg, specs)
	t0 := time.Now()
	defer func() { r.external += time.Since(t0) }()
	e.progress("analyzing and measuring iteration %d (%s)", r.n, r.head.String()[:7])
	iter, err := pl.Compare(ctx, r.prev, r.head)
	if errors.Is(err, gitrepo.ErrNotAncestor) {
		return inputf("HEAD %s does not descend from the loop's last commit %s: record iterations as new commits on top (history must not be rewritten)", r.head.String()[:7], r.prev.String()[:7])
	}
	if err != nil {
		return pipelineErr(err)
	}
	e.progress("comparing iteration %d with the baseline", r.n)
	net, err := pl.CompareNet(ctx, r.baseline, r.head)
	if err != nil {
		return pipelineErr(err)
	}
	if r.headM, err = e.measured(iter.HeadM, r.head); err != nil {
		return err
	}
	r.notes = append(r.notes, iter.Scope...)
	r.findings = append([]gate.Finding(nil), iter.Findings...)
	r.cumulative = append([]gate.Finding(nil), net.Findings...)
	r.witness = net.Witness
	r.mutation = net.Mutation
	if net.BaseM != nil && net.BaseM.Result != nil && net.HeadM != nil && net.HeadM.Result != nil {
		r.netBase, r.netHead = net.BaseM.Result.Tests, net.HeadM.Result.Tests
	}
	return nil
}

// completion runs the completion command in a clean worktree of HEAD.
func (r *recording) completion(ctx context.Context) {
	t0 := time.Now()
	r.e.progress("running the completion command")
	r.check = RunCompletionAt(ctx, r.e.Store.Root, r.head, r.st.CompletionCriteria, r.set.CompletionTimeoutDuration(), r.n, r.now)
	r.external += time.Since(t0)
}

// historyEvidence adds what HEAD's results say against earlier iterations:
// a test that passed at the baseline or an earlier iteration fails now.
func (r *recording) historyEvidence() error {
	switch {
	case r.specs != nil && r.headM.result != nil:
		hist, err := HistoryFindings(r.e.Repo, r.st, r.head, r.n, passingTests(r.headM.result))
		if err != nil {
			return err
		}
		r.findings = append(r.findings, hist...)
		r.cumulative = append(r.cumulative, hist...)
	case r.specs != nil:
		r.notes = append(r.notes, "no test results were measured at HEAD")
	}
	// What the task and the completion command name (AIWG's LP-021).
	targets := namedTargets(r.e.Repo, r.baseline, r.st.Task, r.st.CompletionCriteria)
	if len(targets) == 0 {
		return nil
	}
	touched := map[string]bool{}
	if r.check.Passed {
		changes, err := r.e.Repo.Diff(r.baseline, r.head)
		if err != nil {
			return err
		}
		for _, c := range changes {
			touched[c.From.Path], touched[c.To.Path] = true, true
		}
	}
	named := namedFindings(targets, r.netBase, r.netHead, touched, r.check.Passed)
	// The iteration's own findings too: what it left out of the run is
	// news the iteration brings (recorded once, as a detected pattern).
	r.findings = append(r.findings, named...)
	r.cumulative = append(r.cumulative, named...)
	return nil
}

// analyze applies the configuration and the human approvals to the
// findings and keeps the new net ones: a cheat undone within the
// iteration's own commits never blocks.
func (r *recording) analyze() {
	st := r.st
	// An expired waiver is a finding of its own, as in compare.
	for _, f := range r.cfg.ExpiredWaivers() {
		if !slices.ContainsFunc(r.cumulative, func(g gate.Finding) bool { return g.ID == f.ID }) {
			r.cumulative = append(r.cumulative, f)
		}
	}
	r.cfg.Apply(r.findings)
	r.cfg.Apply(r.cumulative)
	approve(st, r.findings)
	approve(st, r.cumulative)
	r.all = mergeFindings(r.cumulative, r.findings, r.head.String())
	r.active = unsuppressed(r.all)
	seenBefore := map[string]bool{}
	if last := st.Last(); last != nil {
		for _, f := range last.Findings {
			seenBefore[f.ID] = true
		}
	}
	for _, f := range unsuppressed(r.findings) {
		if f.Net && !seenBefore[f.ID] {
			r.newFindings = append(r.newFindings, f)
		}
	}
}

// reuse is a no-op iteration's measure, completion and analyze: the
// measurement, score and completion result of the commit it stands on (the
// iteration that recorded it, else the latest good one, which a reject
// restored, else the baseline), and no findings.
func (r *recording) reuse() {
	st := r.st
	r.notes = []string{"the agent changed nothing: a no-op iteration, measured as the commit it stands on"}
	var src *state.Iteration
	for i := range st.IterationHistory {
		it := &st.IterationHistory[i]
		if it.Commit == r.head.String() && !it.Void {
			src = it
		}
	}
	if src == nil {
		for i := range st.IterationHistory {
			if it := &st.IterationHistory[i]; !it.Void {
				src = it
			}
		}
	}
	r.src = src
	var check *state.CompletionCheck
	if src != nil {
		r.headM = &measurement{metrics: src.MetricsSnapshot, failing: orEmpty(src.FailingTests)}
		check = findCheck(st, src.Iteration)
	} else {
		r.headM = &measurement{metrics: baselineIteration(st).MetricsSnapshot, failing: orEmpty(st.RalphGate.BaselineFailing)}
		check = st.RalphGate.BaselineCompletion
	}
	if check != nil {
		r.check = *check
	}
	r.check.Iteration, r.check.Timestamp = r.n, r.now
	r.all = []gate.Finding{}
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// findCheck is the completion check recorded for iteration n.
func findCheck(st *state.State, n int) *state.CompletionCheck {
	for i := len(st.Progress.CompletionChecks) - 1; i >= 0; i-- {
		if c := &st.Progress.CompletionChecks[i]; c.Iteration == n {
			return c
		}
	}
	return nil
}

// score scores the iteration, tags HEAD and builds its iteration_history
// entry.
func (r *recording) score() error {
	st, e := r.st, r.e
	hm := r.headM.metrics
	var score float64
	var breakdown state.Breakdown
	var void bool
	switch {
	case r.noop && r.src != nil:
		score, breakdown = r.src.QualityScore, r.src.QualityBreakdown
	case r.noop:
		score, breakdown = st.RalphGate.BaselineScore, st.RalphGate.BaselineBreakdown
	default:
		var scoreNotes []string
		score, breakdown, void, scoreNotes = Score(ScoreInput{
			Findings: r.active, CompletionPassed: r.check.Passed,
			BaselineFailing: st.RalphGate.BaselineFailing, Passing: passingTests(r.headM.result), Tests: testResults(hm),
			BaseLint: st.BaselineMetrics.LintErrors, BaseType: st.BaselineMetrics.TypescriptErrors,
			Lint: hm.LintErrors, Type: hm.TypescriptErrors,
			BaseComplexity: st.RalphGate.BaselineComplexity, Complexity: hm.Complexity,
		}, r.set.Weights)
		r.notes = append(r.notes, scoreNotes...)
	}
	tag := TagName(st.LoopID, r.n)
	if err := e.Repo.SetTag(tag, r.head); err != nil {
		return tagErr(err)
	}
	it := state.Iteration{
		Iteration: r.n, Timestamp: r.now, QualityScore: score, QualityBreakdown: breakdown,
		Artifacts: artifacts(e.Repo, r.changes), SnapshotPath: SnapshotPath(st.LoopID, r.n),
		TestResults: testResults(hm), MetricsSnapshot: hm,
		Commit: r.head.String(), Tag: tag, Void: void, Verified: r.check.Passed && !void,
		Findings: r.all, Notes: r.notes, FailingTests: r.headM.failingTests(), NoOp: r.noop,
		Witness: r.witness, Mutation: r.mutation,
	}
	if it.Findings == nil {
		it.Findings = []gate.Finding{}
	}
	if it.Artifacts == nil {
		it.Artifacts = []state.Artifact{}
	}
	if last := st.Last(); last != nil {
		it.QualityDelta = round1(score - last.QualityScore)
	} else {
		it.QualityDelta = round1(score - st.RalphGate.BaselineScore)
	}
	if a := e.Agent; a != nil {
		it.Agent = a
		if a.Usage != nil {
			t := a.Usage.TotalTokens
			it.TokensUsed = &t
			if a.Usage.CostUSD != nil {
				c := *a.Usage.CostUSD
				it.TokenCostUSD = &c
			}
		}
		it.DurationMS = a.DurationMS
	}
	it.Fingerprint = FingerprintRun(it.FailingTests, &r.check, e.Agent)
	for _, f := range r.newFindings {
		if f.Severity >= gate.SeverityMedium {
			it.Regression = true
		}
	}
	r.it = it
	return nil
}

// recover closes the pending retry of an earlier recovery, opens the
// recovery protocol for a regression or a block, and applies the stuck-loop
// rule.
func (r *recording) recover() {
	st, it, n, now := r.st, &r.it, r.n, r.now
	// The pending retry failed when the iteration regressed again or the
	// regression it answered is still there, which makes this iteration a
	// regression too (the next attempt).
	activeIDs := map[string]gate.Finding{}
	for _, f := range r.active {
		activeIDs[f.ID] = f
	}
	r.regressed = append([]gate.Finding(nil), r.newFindings...)
	for i := range st.RecoveryHistory {
		rh := &st.RecoveryHistory[i]
		if rh.ProtocolSteps.Retry == nil || rh.ProtocolSteps.Retry.Outcome != "" {
			continue
		}
		outcome := "success"
		if it.Regression || it.Void {
			outcome = "failed"
		}
		for _, ev := range st.RegressionEvents {
			if ev.Iteration != rh.Iteration {
				continue
			}
			for _, id := range ev.FindingIDs {
				if f, ok := activeIDs[id]; ok {
					outcome = "failed"
					r.regressed = append(r.regressed, f)
				}
			}
		}
		rh.ProtocolSteps.Retry.Outcome, rh.ProtocolSteps.Retry.ExecutedAt = outcome, now
		rh.ProtocolSteps.Retry.RetryIteration = n
		rh.Outcome = outcome
		for j := range st.RegressionEvents {
			if st.RegressionEvents[j].Iteration == rh.Iteration && st.RegressionEvents[j].RecoveryOutcome == nil {
				o := outcome
				st.RegressionEvents[j].RecoveryOutcome = &o
			}
		}
		if outcome == "failed" {
			it.Regression = true
		}
	}
	r.regressed = dedupe(r.regressed)

	r.events = regressionEvents(now, n, r.regressed, st, r.headM.metrics)
	r.blockReasons = blocking(r.newFindings)
	if it.Regression || len(r.blockReasons) > 0 {
		attempt := st.RecoveryAttempts + 1
		if len(r.blockReasons) == 0 && attempt >= r.set.MaxRetries {
			r.blockReasons = append(r.blockReasons, fmt.Sprintf("recovery attempt %d of %d: retries are exhausted", attempt, r.set.MaxRetries))
		}
		d := Diagnose(Evidence{Findings: r.regressed, ChangedFiles: len(r.changes),
			FailStreak: failStreak(st, r.check.Passed), CompletionPassed: r.check.Passed,
			TestsFailing: len(it.FailingTests), TestsMeasured: r.headM.measuredTests(), AgentFailure: r.e.Agent.Failure()})
		rec := recoveryStep(now, n, attempt, triggerOf(r.regressed), d, strings.Join(r.blockReasons, "; "))
		r.rec = &rec
		st.RecoveryAttempts = attempt
		it.RecoveryAttempt = true
		for i := range r.events {
			r.events[i].RecoveryInvoked = true
			if len(r.blockReasons) > 0 {
				esc := "escalated"
				r.events[i].RecoveryOutcome = &esc
				r.events[i].HumanGateInvoked = true
			}
		}
		r.retrying = len(r.blockReasons) == 0
	}
	// A stuck loop: the same failure several iterations in a row.
	if r.rec == nil && it.Fingerprint != "" && stuck(st, it.Fingerprint, r.set.StuckAfter) {
		evidence := []string{fmt.Sprintf("the same failure (fingerprint %s) in %d iterations in a row", it.Fingerprint, r.set.StuckAfter)}
		if f := r.e.Agent.Failure(); f != "" {
			evidence = append(evidence, f)
		}
		d := Diagnosis{Cause: CauseComplexity, Confidence: 0.8, Evidence: evidence}
		reason := fmt.Sprintf("stuck loop: the same failure %d iterations in a row", r.set.StuckAfter)
		rec := recoveryStep(now, n, st.RecoveryAttempts+1, "stuck_loop_detected: "+reason, d, reason)
		r.rec = &rec
		st.RecoveryAttempts++
		it.RecoveryAttempt = true
		r.blockReasons = append(r.blockReasons, reason)
	}
}

// decide sets the iteration's decision (continue, blocked, stop) and the
// loop's state that follows from it.
func (r *recording) decide() *Outcome {
	st, it, now := r.st, r.it, r.now
	out := &Outcome{Iteration: &it, Notes: r.notes}
	st.Iteration = r.n
	st.RalphGate.LastCommit = r.head.String()
	st.Progress.CompletionChecks = append(st.Progress.CompletionChecks, r.check)
	check := r.check
	st.Progress.LastCompletionCheck = &check
	for _, f := range r.newFindings {
		id, name := PatternOf(f)
		st.DetectedPatterns = append(st.DetectedPatterns, state.Pattern{PatternID: id, PatternName: name,
			Iteration: r.n, Timestamp: now, Severity: f.Severity.String(), FindingID: f.ID})
	}
	st.RegressionEvents = append(st.RegressionEvents, r.events...)
	if r.rec != nil {
		st.RecoveryHistory = append(st.RecoveryHistory, *r.rec)
	}
	if a := r.e.Agent; a.Failed() {
		st.ErrorContext = &state.ErrorContext{ErrorMessage: a.Failure(), ErrorTimestamp: now, StackTrace: a.StderrTail,
			RecoveryAttempted: r.rec != nil, Iteration: r.n, ExitCode: a.ExitCode, TimedOut: a.TimedOut}
	}

	switch {
	case len(r.blockReasons) > 0:
		it.Decision, it.Reason = string(Blocked), "blocked: "+strings.Join(r.blockReasons, "; ")
		it.Void = true
		it.Verified = false
		st.Status = state.StatusPaused
		out.Gate = r.rec.RecoveryID
		out.Escalated = r.rec.Attempt >= r.set.MaxRetries || strings.HasPrefix(r.rec.Trigger, "stuck_loop_detected")
	default:
		st.IterationHistory = append(st.IterationHistory, it)
		stop := CheckStop(st, &st.IterationHistory[len(st.IterationHistory)-1], r.retrying, now.Sub(st.StartedAt).Minutes())
		st.IterationHistory = st.IterationHistory[:len(st.IterationHistory)-1]
		if stop.Stop {
			it.Decision, it.Reason = string(Stopped), "stop: "+stop.Reason
			// CheckStop's order: a verified iteration completes, else the
			// limit stops the loop first.
			if !it.Verified && it.Iteration >= st.RalphGate.Settings.MaxIterations {
				recordLimitExceeded(st, r.n, now)
			}
		} else {
			it.Decision, it.Reason = string(Continue), continueReason(&it, r.retrying)
		}
	}
	st.IterationHistory = append(st.IterationHistory, it)
	out.Iteration = &st.IterationHistory[len(st.IterationHistory)-1]
	out.Decision, out.Reason = Decision(it.Decision), it.Reason
	return out
}

// persist updates the best iteration, the reinforcement level and the
// metrics, saves the state, and writes the snapshot, registry, log and
// analytics.
func (r *recording) persist(out *Outcome) (*Outcome, error) {
	st, e, now := r.st, r.e, r.now
	updateBest(st, now)
	level, why := NextLevel(st, out.Iteration, r.retrying)
	if why != "" && level != st.ReinforcementLevel {
		st.ReinforcementHist = append(st.ReinforcementHist, state.LevelChange{Timestamp: now, Iteration: r.n, FromLevel: st.ReinforcementLevel, ToLevel: level, Reason: why})
		st.ReinforcementLevel = level
	}
	if out.Decision == Stopped {
		finish(st, now, strings.TrimPrefix(out.Iteration.Reason, "stop: "))
	}
	updateMetrics(st, now)
	out.Overhead = time.Since(r.start) - r.external
	st.RalphGate.RecordLatencyMS = append(st.RalphGate.RecordLatencyMS, int(out.Overhead.Milliseconds()))
	if k := len(st.RalphGate.RecordLatencyMS); k > 100 {
		st.RalphGate.RecordLatencyMS = st.RalphGate.RecordLatencyMS[k-100:]
	}
	out.Iteration.GateMS = time.Since(r.start).Milliseconds() + e.CommitMS
	landed := e.Landed
	if landed.IsZero() {
		if c, err := e.Repo.Commit(r.head); err == nil {
			landed = c.When
		}
	}
	if !landed.IsZero() {
		lat := max(0, int(time.Since(landed).Milliseconds()))
		st.RalphGate.DetectionLatencyMS = append(st.RalphGate.DetectionLatencyMS, lat)
		if k := len(st.RalphGate.DetectionLatencyMS); k > 100 {
			st.RalphGate.DetectionLatencyMS = st.RalphGate.DetectionLatencyMS[k-100:]
		}
	}
	calls, _ := e.Store.ToolCalls(st.LoopID)
	UpdatePersistence(st, SummarizeToolCalls(calls))
	st.LastUpdated = now
	cp := out.Iteration.SnapshotPath
	st.LastCheckpoint = &cp
	if err := e.Store.Save(r.snap, "record", now); err != nil {
		return nil, err
	}
	if err := e.Store.WriteSnapshot(st, out.Iteration); err != nil {
		out.Notes = append(out.Notes, "could not write the iteration snapshot: "+err.Error())
	}
	if err := e.Store.UpdateRegistry(now, func(reg *state.Registry) error { reg.Sync(st, now); return nil }); err != nil {
		out.Notes = append(out.Notes, "could not update the registry: "+err.Error())
	}
	logRecord(e.Store, st, out, now, why)
	if err := WriteAnalytics(e.Store, st); err != nil {
		out.Notes = append(out.Notes, "could not write analytics: "+err.Error())
	}
	return out, nil
}

func continueReason(it *state.Iteration, retrying bool) string {
	switch {
	case retrying:
		return fmt.Sprintf("continue: regression in iteration %d; recovery retry with the adapted strategy", it.Iteration)
	case it.Void:
		return "continue: the iteration is void"
	}
	return fmt.Sprintf("continue: quality %.1f (%+.1f)", it.QualityScore, it.QualityDelta)
}
