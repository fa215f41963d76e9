package loop

import (
	"fmt"
	"strings"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// The steps of Record that judge the iteration and keep the verdict: score,
// recover, decide and persist.

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
