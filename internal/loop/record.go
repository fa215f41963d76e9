package loop

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
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
	Iteration *Iteration
	Decision  Decision
	Reason    string
	// Gate is the pending human gate's id when Decision is Blocked.
	Gate  string
	Notes []string
	// Overhead is record's own time without the collectors and the
	// completion command.
	Overhead time.Duration
}

// BlockedError is returned by record when a human decision is pending.
type BlockedError struct{ Msg string }

func (e *BlockedError) Error() string { return e.Msg }

// Record records HEAD as the loop's next iteration. The caller holds the
// loop's lock and saves nothing itself: Record saves.
func Record(ctx context.Context, e *Env, snap *Snapshot, pid int) (*Outcome, error) {
	start := time.Now()
	var external time.Duration
	st := snap.State
	now := e.now()
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
	case st.Status == StatusPaused && st.RalphGate.StopReason != "":
		return nil, inputf("loop %s stopped at iteration %d without completion (%s); go on with 'ralph-gate resume --loop %s' (--extend N adds iterations) or end it with abort",
			st.LoopID, st.Iteration, st.RalphGate.StopReason, st.LoopID)
	case st.Status == StatusPaused:
		return nil, inputf("loop %s is paused; resume it first (ralph-gate resume --loop %s)", st.LoopID, st.LoopID)
	case st.Status != StatusRunning:
		return nil, inputf("loop %s is %s; start a new loop (ralph-gate start)", st.LoopID, st.Status)
	}
	head, err := e.Repo.Resolve("HEAD")
	if err != nil {
		return nil, err
	}
	prev := plumbing.NewHash(st.RalphGate.LastCommit)
	baseline := plumbing.NewHash(st.RalphGate.BaselineCommit)
	if head == prev {
		return nil, inputf("HEAD %s is already recorded (iteration %d of %s): commit the next iteration first", head.String()[:7], st.Iteration, st.LoopID)
	}
	n := st.Iteration + 1
	cfg, err := loadConfig(e.Repo, baseline)
	if err != nil {
		return nil, err
	}
	set := st.RalphGate.Settings

	// One pipeline, the one compare uses: this iteration against the previous
	// one (every commit and the net change), and the net change since the
	// baseline; HEAD is measured once, the other ends come from the cache
	// when they were measured before.
	specs, notes, err := e.specsFor(set.Collect, baseline, cfg)
	if err != nil {
		return nil, err
	}
	if dirty, err := Dirty(ctx, e.Store.Root); err == nil && dirty != "" {
		notes = append(notes, fmt.Sprintf("the work tree has uncommitted changes (%s): the completion command ran on them, while the collectors measured HEAD", dirty))
	}
	changes, err := e.Repo.Diff(prev, head)
	if err != nil {
		return nil, err
	}
	pl := e.pipeline(cfg, specs)
	t0 := time.Now()
	e.progress("analyzing and measuring iteration %d (%s)", n, head.String()[:7])
	iter, err := pl.Compare(ctx, prev, head)
	if errors.Is(err, gitrepo.ErrNotAncestor) {
		return nil, inputf("HEAD %s does not descend from the loop's last commit %s: record iterations as new commits on top (history must not be rewritten)", head.String()[:7], prev.String()[:7])
	}
	if err != nil {
		return nil, pipelineErr(err)
	}
	e.progress("comparing iteration %d with the baseline", n)
	net, err := pl.CompareNet(ctx, baseline, head)
	if err != nil {
		return nil, pipelineErr(err)
	}
	headM, err := e.measured(iter.HeadM, head)
	if err != nil {
		return nil, err
	}
	e.progress("running the completion command")
	check := RunCompletionAt(ctx, e.Store.Root, head, st.CompletionCriteria, set.CompletionTimeoutDuration(), n, now)
	external += time.Since(t0)

	findings := append([]gate.Finding(nil), iter.Findings...)
	cumulative := append([]gate.Finding(nil), net.Findings...)
	if specs != nil && headM.result != nil {
		hist, err := HistoryFindings(e.Repo, st, head, n, passingTests(headM.result))
		if err != nil {
			return nil, err
		}
		findings = append(findings, hist...)
		cumulative = append(cumulative, hist...)
	} else if specs != nil {
		notes = append(notes, "no test results were measured at HEAD")
	}
	cfg.Apply(findings)
	cfg.Apply(cumulative)
	approve(st, findings)
	approve(st, cumulative)
	all := mergeFindings(cumulative, findings, head.String())
	active := unsuppressed(all)
	// Only net findings count: a cheat undone within the iteration's own
	// commits never blocks.
	var newFindings []gate.Finding
	seenBefore := map[string]bool{}
	if last := st.Last(); last != nil {
		for _, f := range last.Findings {
			seenBefore[f.ID] = true
		}
	}
	for _, f := range unsuppressed(findings) {
		if f.Net && !seenBefore[f.ID] {
			newFindings = append(newFindings, f)
		}
	}

	hm := headM.metrics
	score, breakdown, void, scoreNotes := Score(ScoreInput{
		Findings: active, CompletionPassed: check.Passed,
		BaselineFailing: st.RalphGate.BaselineFailing, Passing: passingTests(headM.result), Tests: testResults(hm),
		BaseLint: st.BaselineMetrics.LintErrors, BaseType: st.BaselineMetrics.TypescriptErrors,
		Lint: hm.LintErrors, Type: hm.TypescriptErrors,
		BaseComplexity: st.RalphGate.BaselineComplexity, Complexity: hm.Complexity,
	}, set.Weights)
	notes = append(notes, scoreNotes...)

	tag := TagName(st.LoopID, n)
	if err := e.Repo.SetTag(tag, head); err != nil {
		return nil, err
	}
	it := Iteration{
		Iteration: n, Timestamp: now, QualityScore: score, QualityBreakdown: breakdown,
		Artifacts: artifacts(e.Repo, changes), SnapshotPath: SnapshotPath(st.LoopID, n),
		TestResults: testResults(hm), MetricsSnapshot: hm,
		Commit: head.String(), Tag: tag, Void: void, Verified: check.Passed && !void,
		Findings: all, Notes: notes, FailingTests: failingTests(headM.result),
	}
	if it.Findings == nil {
		it.Findings = []gate.Finding{}
	}
	if it.Artifacts == nil {
		it.Artifacts = []Artifact{}
	}
	if last := st.Last(); last != nil {
		it.QualityDelta = round1(score - last.QualityScore)
	} else {
		it.QualityDelta = round1(score - st.RalphGate.BaselineScore)
	}
	it.Fingerprint = Fingerprint(it.FailingTests, &check)
	for _, f := range newFindings {
		if f.Severity >= gate.SeverityMedium {
			it.Regression = true
		}
	}

	// Close the pending retry of an earlier recovery: it failed when the
	// iteration regressed again or the regression it answered is still there,
	// which makes this iteration a regression too (the next attempt).
	activeIDs := map[string]gate.Finding{}
	for _, f := range active {
		activeIDs[f.ID] = f
	}
	regressed := append([]gate.Finding(nil), newFindings...)
	retrying := false
	for i := range st.RecoveryHistory {
		r := &st.RecoveryHistory[i]
		if r.ProtocolSteps.Retry == nil || r.ProtocolSteps.Retry.Outcome != "" {
			continue
		}
		outcome := "success"
		if it.Regression || it.Void {
			outcome = "failed"
		}
		for _, ev := range st.RegressionEvents {
			if ev.Iteration != r.Iteration {
				continue
			}
			for _, id := range ev.FindingIDs {
				if f, ok := activeIDs[id]; ok {
					outcome = "failed"
					regressed = append(regressed, f)
				}
			}
		}
		r.ProtocolSteps.Retry.Outcome, r.ProtocolSteps.Retry.ExecutedAt = outcome, now
		r.ProtocolSteps.Retry.RetryIteration = n
		r.Outcome = outcome
		for j := range st.RegressionEvents {
			if st.RegressionEvents[j].Iteration == r.Iteration && st.RegressionEvents[j].RecoveryOutcome == nil {
				o := outcome
				st.RegressionEvents[j].RecoveryOutcome = &o
			}
		}
		if outcome == "failed" {
			it.Regression = true
		}
	}
	regressed = dedupe(regressed)

	// Regression events and the recovery protocol.
	events := regressionEvents(now, n, regressed, st, hm)
	blockReasons := blocking(newFindings)
	var rec *Recovery
	if it.Regression || len(blockReasons) > 0 {
		attempt := st.RecoveryAttempts + 1
		if len(blockReasons) == 0 && attempt >= set.MaxRetries {
			blockReasons = append(blockReasons, fmt.Sprintf("recovery attempt %d of %d: retries are exhausted", attempt, set.MaxRetries))
		}
		d := Diagnose(Evidence{Findings: regressed, ChangedFiles: len(changes),
			FailStreak: failStreak(st, check.Passed), CompletionPassed: check.Passed,
			TestsFailing: len(it.FailingTests), TestsMeasured: headM.result != nil && headM.result.Tests != nil})
		r := recoveryStep(now, n, attempt, triggerOf(regressed), d, strings.Join(blockReasons, "; "))
		rec = &r
		st.RecoveryAttempts = attempt
		it.RecoveryAttempt = true
		for i := range events {
			events[i].RecoveryInvoked = true
			if len(blockReasons) > 0 {
				esc := "escalated"
				events[i].RecoveryOutcome = &esc
				events[i].HumanGateInvoked = true
			}
		}
		retrying = len(blockReasons) == 0
	}
	// A stuck loop: the same failure several iterations in a row.
	if rec == nil && it.Fingerprint != "" && stuck(st, it.Fingerprint, set.StuckAfter) {
		d := Diagnosis{Cause: CauseComplexity, Confidence: 0.8, Evidence: []string{
			fmt.Sprintf("the same failure (fingerprint %s) in %d iterations in a row", it.Fingerprint, set.StuckAfter)}}
		reason := fmt.Sprintf("stuck loop: the same failure %d iterations in a row", set.StuckAfter)
		r := recoveryStep(now, n, st.RecoveryAttempts+1, "stuck_loop_detected: "+reason, d, reason)
		rec = &r
		st.RecoveryAttempts++
		it.RecoveryAttempt = true
		blockReasons = append(blockReasons, reason)
	}

	out := &Outcome{Iteration: &it, Notes: notes}
	st.Iteration = n
	st.RalphGate.LastCommit = head.String()
	st.Progress.CompletionChecks = append(st.Progress.CompletionChecks, check)
	st.Progress.LastCompletionCheck = &check
	for _, f := range newFindings {
		st.DetectedPatterns = append(st.DetectedPatterns, Pattern{PatternID: patternIDs[f.Type], PatternName: patternName(f.Type),
			Iteration: n, Timestamp: now, Severity: f.Severity.String(), FindingID: f.ID})
	}
	st.PersistenceMetrics.TruePositiveCount = len(st.DetectedPatterns)
	st.RegressionEvents = append(st.RegressionEvents, events...)
	if rec != nil {
		st.RecoveryHistory = append(st.RecoveryHistory, *rec)
	}

	switch {
	case len(blockReasons) > 0:
		it.Decision, it.Reason = string(Blocked), "blocked: "+strings.Join(blockReasons, "; ")
		it.Void = true
		it.Verified = false
		st.Status = StatusPaused
		out.Gate = rec.RecoveryID
	default:
		st.IterationHistory = append(st.IterationHistory, it)
		stop := CheckStop(st, &st.IterationHistory[len(st.IterationHistory)-1], retrying, now.Sub(st.StartedAt).Minutes())
		st.IterationHistory = st.IterationHistory[:len(st.IterationHistory)-1]
		if stop.Stop {
			it.Decision, it.Reason = string(Stopped), "stop: "+stop.Reason
		} else {
			it.Decision, it.Reason = string(Continue), continueReason(&it, retrying)
		}
	}
	st.IterationHistory = append(st.IterationHistory, it)
	out.Iteration = &st.IterationHistory[len(st.IterationHistory)-1]
	out.Decision, out.Reason = Decision(it.Decision), it.Reason

	updateBest(st, now)
	level, why := NextLevel(st, out.Iteration, retrying)
	if why != "" && level != st.ReinforcementLevel {
		st.ReinforcementHist = append(st.ReinforcementHist, LevelChange{Timestamp: now, Iteration: n, FromLevel: st.ReinforcementLevel, ToLevel: level, Reason: why})
		st.ReinforcementLevel = level
	}
	if out.Decision == Stopped {
		finish(st, now, strings.TrimPrefix(it.Reason, "stop: "))
	}
	updateMetrics(st, now)
	out.Overhead = time.Since(start) - external
	st.RalphGate.RecordLatencyMS = append(st.RalphGate.RecordLatencyMS, int(out.Overhead.Milliseconds()))
	if k := len(st.RalphGate.RecordLatencyMS); k > 100 {
		st.RalphGate.RecordLatencyMS = st.RalphGate.RecordLatencyMS[k-100:]
	}
	st.PersistenceMetrics.DetectionLatencyP95MS = percentile(st.RalphGate.RecordLatencyMS, 95)
	st.PersistenceMetrics.DetectionLatencyP99MS = percentile(st.RalphGate.RecordLatencyMS, 99)
	st.LastUpdated = now
	cp := it.SnapshotPath
	st.LastCheckpoint = &cp
	if err := e.Store.Save(snap, "record", now); err != nil {
		return nil, err
	}
	if err := e.Store.WriteSnapshot(st, out.Iteration); err != nil {
		out.Notes = append(out.Notes, "could not write the iteration snapshot: "+err.Error())
	}
	if err := e.Store.UpdateRegistry(now, func(r *Registry) error { r.Sync(st, now); return nil }); err != nil {
		out.Notes = append(out.Notes, "could not update the registry: "+err.Error())
	}
	e.Store.logRecord(st, out, now, why)
	if err := e.Store.WriteAnalytics(st); err != nil {
		out.Notes = append(out.Notes, "could not write analytics: "+err.Error())
	}
	return out, nil
}

func continueReason(it *Iteration, retrying bool) string {
	switch {
	case retrying:
		return fmt.Sprintf("continue: regression in iteration %d; recovery retry with the adapted strategy", it.Iteration)
	case it.Void:
		return "continue: the iteration is void"
	}
	return fmt.Sprintf("continue: quality %.1f (%+.1f)", it.QualityScore, it.QualityDelta)
}
