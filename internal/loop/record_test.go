//go:build unix

package loop

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/agent"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// TestRecordContinueThenComplete: an iteration that changes code
// continues; one that makes the completion command pass completes the loop.
func TestRecordContinueThenComplete(t *testing.T) {
	t.Parallel()
	r := newLoopRepo(t)
	e := r.env()
	snap := r.start(e, StartOptions{Task: "fix calc", Completion: "test -f DONE"})
	id := snap.State.LoopID

	// Nothing committed yet: HEAD is the baseline, already recorded.
	_, err := Record(context.Background(), e, snap, 0)
	var in *InputError
	if !errors.As(err, &in) || !strings.Contains(err.Error(), "already recorded") {
		t.Fatalf("record of the baseline: err = %v", err)
	}

	r.write("calc.go", fixedAdd)
	c1 := r.commit("iteration 1")
	var said []string
	e.Progress = func(s string) { said = append(said, s) }
	out := r.record(e, snap)
	it := out.Iteration
	if out.Decision != Continue || it.Iteration != 1 || it.Commit != c1 || it.Tag != TagName(id, 1) || it.Void || it.Verified ||
		it.Decision != "continue" || !strings.HasPrefix(out.Reason, "continue: quality") {
		t.Fatalf("iteration 1 = %+v (%s)", it, out.Reason)
	}
	if len(it.Artifacts) != 1 || it.Artifacts[0].Path != "calc.go" || it.Artifacts[0].Change != "modified" || it.Artifacts[0].SizeBytes != len(fixedAdd) {
		t.Errorf("artifacts = %+v", it.Artifacts)
	}
	if it.Fingerprint == "" || it.Fingerprint != Fingerprint(it.FailingTests, snap.State.Progress.LastCompletionCheck) {
		t.Errorf("fingerprint %q of a failing completion", it.Fingerprint)
	}
	if got := r.git("rev-parse", TagName(id, 1)+"^{commit}"); got != c1 {
		t.Errorf("iter-001 = %s, want %s", got, c1)
	}
	if len(said) < 2 {
		t.Errorf("progress = %q", said)
	}
	if _, err := os.Stat(filepath.Join(r.dir, filepath.FromSlash(SnapshotPath(id, 1)))); err != nil {
		t.Errorf("iteration snapshot: %v", err)
	}
	if _, err := os.Stat(filepath.Join(e.Store.LoopDir(id), "analytics", "analytics.json")); err != nil {
		t.Errorf("analytics: %v", err)
	}
	// A change outside git's index is noted, not measured.
	r.write("calc.go", fixedAdd+"\n// uncommitted\n")
	r.write("DONE", "done\n")
	r.git("add", "DONE")
	r.git("commit", "-q", "-m", "iteration 2: done")
	out = r.record(e, snap)
	it = out.Iteration
	if out.Decision != Stopped || !it.Verified || it.Iteration != 2 || !strings.Contains(out.Reason, "the completion command passed") {
		t.Fatalf("iteration 2 = %+v (%s)", it, out.Reason)
	}
	if !strings.Contains(strings.Join(out.Notes, "\n"), "uncommitted changes") {
		t.Errorf("notes do not mention the dirty work tree: %q", out.Notes)
	}
	s := snap.State
	if s.Status != state.StatusCompleted || s.CompletedAt == nil || s.DetectionEnabled || s.RalphGate.StopReason != "the completion command passed" {
		t.Errorf("state = %s, completed at %v, stop %q", s.Status, s.CompletedAt, s.RalphGate.StopReason)
	}
	// Successful iterations are those whose completion passed: iteration
	// 1 went on with the completion failing.
	if s.BestIteration == nil || s.BestIteration.Iteration != 2 || s.Metrics.TotalIterations != 2 || s.Metrics.SuccessfulIterations != 1 {
		t.Errorf("best = %+v, metrics %+v", s.BestIteration, s.Metrics)
	}
	if len(s.Progress.CompletionChecks) != 3 || !s.Progress.LastCompletionCheck.Passed {
		t.Errorf("completion checks = %+v", s.Progress.CompletionChecks)
	}
	// The loop is over: record refuses, the registry has let it go.
	r.write("x.txt", "x")
	r.commit("after the end")
	if _, err := Record(context.Background(), e, r.load(e, id), 0); !errors.As(err, &in) || !strings.Contains(err.Error(), "is completed") {
		t.Errorf("record after completion: err = %v", err)
	}
	reg, _ := e.Store.ReadRegistry()
	if len(reg.ActiveLoops) != 0 || reg.TotalCompleted != 1 {
		t.Errorf("registry = %+v", reg)
	}
	if got := hooksOf(t, e, id); got != "loop_start post_iteration post_iteration reinforcement_escalation loop_complete" {
		t.Errorf("hooks = %s", got)
	}
	// The reloaded state is what record saved.
	if re := r.load(e, id).State; re.Iteration != 2 || re.Status != state.StatusCompleted {
		t.Errorf("reloaded: iteration %d, %s", re.Iteration, re.Status)
	}
}

// TestRecordNotDescending: HEAD on another line of history than the
// loop's last commit is refused (history must not be rewritten).
func TestRecordNotDescending(t *testing.T) {
	t.Parallel()
	r := newLoopRepo(t)
	e := r.env()
	snap := r.start(e, StartOptions{Task: "fix", Completion: "false"})
	r.write("calc.go", fixedAdd)
	r.commit("iteration 1")
	r.record(e, snap)
	r.git("checkout", "-q", "-b", "other", snap.State.RalphGate.BaselineCommit)
	r.write("other.txt", "other\n")
	r.commit("elsewhere")
	_, err := Record(context.Background(), e, snap, 0)
	var in *InputError
	if !errors.As(err, &in) || !strings.Contains(err.Error(), "does not descend") {
		t.Fatalf("err = %v, want a refusal", err)
	}
	if snap.State.Iteration != 1 {
		t.Errorf("iteration = %d after a refused record", snap.State.Iteration)
	}
}

// TestRecordTestDeletionBlocks: deleting a Go test is blocked even
// without collectors: the iteration is void, the loop waits for a human,
// and record refuses until one decides.
func TestRecordTestDeletionBlocks(t *testing.T) {
	t.Parallel()
	r := newLoopRepo(t)
	e := r.env()
	snap := r.start(e, StartOptions{Task: "fix", Completion: "false"})
	r.write("calc_test.go", withoutSub)
	r.commit("tests pass now")
	out := r.record(e, snap)
	it := out.Iteration
	if out.Decision != Blocked || !it.Void || it.Verified || !it.Regression || !it.RecoveryAttempt || out.Gate == "" || out.Escalated {
		t.Fatalf("outcome = %+v, iteration %+v", out, it)
	}
	if !hasFinding(it, string(gate.TestDeletion)) || !strings.Contains(it.Reason, "test_deletion") {
		t.Errorf("findings = %+v, reason %q", it.Findings, it.Reason)
	}
	s := snap.State
	if s.Status != state.StatusPaused || len(s.PendingGates()) != 1 || s.PendingGates()[0].RecoveryID != out.Gate || s.RecoveryAttempts != 1 {
		t.Errorf("state %s, gates %+v", s.Status, s.PendingGates())
	}
	if len(s.RegressionEvents) != 1 || s.RegressionEvents[0].Details.RalphGateType != string(gate.TestDeletion) ||
		!s.RegressionEvents[0].HumanGateInvoked || s.RegressionEvents[0].RecoveryOutcome == nil || *s.RegressionEvents[0].RecoveryOutcome != "escalated" {
		t.Errorf("regression events = %+v", s.RegressionEvents)
	}
	if len(s.DetectedPatterns) == 0 || s.DetectedPatterns[0].PatternID != "LP-001" || s.DetectedPatterns[0].PatternName == "" ||
		s.DetectedPatterns[0].FindingID != s.RegressionEvents[0].FindingIDs[0] || s.DetectedPatterns[0].Severity != "critical" {
		t.Errorf("patterns = %+v", s.DetectedPatterns)
	}
	g := s.RecoveryHistory[0]
	if g.ProtocolSteps.Diagnose.RootCause != CauseRewardHacking || g.ProtocolSteps.Adapt.Strategy != "escalate_to_human_gate" || g.Outcome != "escalated" {
		t.Errorf("recovery = %+v", g.ProtocolSteps)
	}
	if s.BestIteration != nil {
		t.Errorf("a void iteration is best: %+v", s.BestIteration)
	}
	if got := hooksOf(t, e, s.LoopID); got != "loop_start post_iteration regression_detected regression_detected reinforcement_escalation" {
		t.Errorf("hooks = %s", got)
	}
	// Another commit cannot be recorded while the gate waits.
	r.write("more.txt", "x")
	r.commit("more")
	_, err := Record(context.Background(), e, snap, 0)
	var blocked *BlockedError
	if !errors.As(err, &blocked) || !strings.Contains(err.Error(), out.Gate) {
		t.Errorf("record while blocked: err = %v", err)
	}
	if _, err := RecordNoop(context.Background(), e, snap, 0); !errors.As(err, &blocked) {
		t.Errorf("no-op record while blocked: err = %v", err)
	}
}

// TestRecordStopsAtMaxIterations: the limit stops the loop paused,
// with its reason, not failed; it takes --extend to go on.
func TestRecordStopsAtMaxIterations(t *testing.T) {
	t.Parallel()
	r := newLoopRepo(t)
	e := r.env()
	snap := r.start(e, StartOptions{Task: "fix", Completion: "false", MaxIterations: intPtr(1)})
	r.write("calc.go", fixedAdd)
	r.commit("iteration 1")
	out := r.record(e, snap)
	s := snap.State
	if out.Decision != Stopped || out.Reason != "stop: max iterations reached (1)" || s.Status != state.StatusPaused ||
		s.RalphGate.StopReason != "max iterations reached (1)" || s.CompletedAt != nil {
		t.Fatalf("decision %s (%s), status %s, stop %q", out.Decision, out.Reason, s.Status, s.RalphGate.StopReason)
	}
	checkLimitExceeded(t, e, s, 1)
	r.write("x.txt", "x")
	r.commit("iteration 2")
	_, err := Record(context.Background(), e, snap, 0)
	var in *InputError
	if !errors.As(err, &in) || !strings.Contains(err.Error(), "stopped at iteration 1") {
		t.Fatalf("record after the stop: err = %v", err)
	}
	// Resuming needs more iterations first.
	if err := Transition(e, snap, state.StatusRunning, "resume"); !errors.As(err, &in) || !strings.Contains(err.Error(), "--extend") {
		t.Fatalf("resume without --extend: err = %v", err)
	}
	ExtendIterations(s, 2)
	if s.Configuration.MaxIterations != 3 || s.RalphGate.Settings.MaxIterations != 3 {
		t.Fatalf("extended to %d / %d", s.Configuration.MaxIterations, s.RalphGate.Settings.MaxIterations)
	}
	if err := Transition(e, snap, state.StatusRunning, "resume"); err != nil {
		t.Fatal(err)
	}
	if s.Status != state.StatusRunning || s.RalphGate.StopReason != "" || s.RalphGate.WindowStart != 1 {
		t.Errorf("after resume: %s, stop %q, window %d", s.Status, s.RalphGate.StopReason, s.RalphGate.WindowStart)
	}
	if out := r.record(e, snap); out.Decision != Continue || out.Iteration.Iteration != 2 {
		t.Errorf("iteration 2 after resume: %s %s", out.Decision, out.Reason)
	}
}

// TestRecordNoopAndStuck: an iteration that changes nothing is
// recorded on the last commit with its measurement reused; the same
// failure three iterations in a row is a stuck loop a human must look at.
func TestRecordNoopAndStuck(t *testing.T) {
	t.Parallel()
	r := newLoopRepo(t)
	e := r.env()
	snap := r.start(e, StartOptions{Task: "fix", Completion: "echo not yet; false"})
	id := snap.State.LoopID

	// A no-op at the baseline reuses the baseline.
	out, err := RecordNoop(context.Background(), e, snap, 0)
	if err != nil {
		t.Fatal(err)
	}
	it := out.Iteration
	base := snap.State.RalphGate.BaselineCommit
	if !it.NoOp || it.Iteration != 1 || it.Commit != base || it.QualityScore != snap.State.RalphGate.BaselineScore || it.QualityDelta != 0 ||
		out.Decision != Continue || len(it.Findings) != 0 || it.FailingTests == nil {
		t.Fatalf("no-op at the baseline = %+v (%s)", it, out.Reason)
	}
	if got := r.git("rev-parse", TagName(id, 1)+"^{commit}"); got != base {
		t.Errorf("iter-001 = %s, want the baseline %s", got, base)
	}
	if c := snap.State.Progress.LastCompletionCheck; c.Iteration != 1 || c.Passed || c.ExitCode != 1 || !strings.Contains(c.Output, "not yet") {
		t.Errorf("reused completion check = %+v", c)
	}
	// A commit is not a no-op.
	r.write("calc.go", fixedAdd)
	r.commit("iteration 2")
	var in *InputError
	if _, err := RecordNoop(context.Background(), e, snap, 0); !errors.As(err, &in) || !strings.Contains(err.Error(), "not the loop's last commit") {
		t.Fatalf("no-op with a new commit: err = %v", err)
	}
	out = r.record(e, snap)
	two := *out.Iteration
	if out.Decision != Continue || two.Iteration != 2 {
		t.Fatalf("iteration 2 = %s %s", out.Decision, out.Reason)
	}
	// A no-op reuses iteration 2's measurement and score.
	out, err = RecordNoop(context.Background(), e, snap, 0)
	if err != nil {
		t.Fatal(err)
	}
	it = out.Iteration
	if !it.NoOp || it.Iteration != 3 || it.QualityScore != two.QualityScore || it.Commit != two.Commit || it.Fingerprint != two.Fingerprint {
		t.Fatalf("no-op after iteration 2 = %+v", it)
	}
	if out.Decision != Blocked || !out.Escalated || !strings.Contains(out.Reason, "stuck loop") {
		t.Fatalf("three identical failures: %s (%s), escalated %v", out.Decision, out.Reason, out.Escalated)
	}
	g := snap.State.PendingGates()
	if len(g) != 1 || !strings.HasPrefix(g[0].Trigger, "stuck_loop_detected") || g[0].ProtocolSteps.Diagnose.RootCause != CauseComplexity {
		t.Errorf("gate = %+v", g)
	}
	if hooks := hooksOf(t, e, id); !strings.Contains(hooks, "post_iteration stuck_loop_detected") {
		t.Errorf("the log does not show the stuck loop: %s", hooks)
	}
	// The prompt tells the agent about the block, the no-op and the repeats.
	p := Prompt(snap.State)
	for _, want := range []string{"Iteration 3 was blocked (stuck loop", "Iteration 3 changed nothing", "The same failure has repeated for 3 iterations", "`echo not yet; false` failed (exit 1) in iteration 3"} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt after the stuck loop lacks %q:\n%s", want, p)
		}
	}
}

// TestRecordAgentFailure: an iteration whose agent failed records the
// failure in error_context, and the failure is part of its fingerprint.
func TestRecordAgentFailure(t *testing.T) {
	t.Parallel()
	r := newLoopRepo(t)
	e := r.env()
	snap := r.start(e, StartOptions{Task: "fix", Completion: "false"})
	r.write("calc.go", fixedAdd)
	r.commit("iteration 1")
	cost := 0.02
	e.Agent = &state.AgentRun{Command: "agent", ExitCode: 3, DurationMS: 1500, StderrTail: "panic: boom\nexit 3",
		Usage: &agent.Usage{Source: "claude", TotalTokens: 42, CostUSD: &cost, Lines: 1}}
	out := r.record(e, snap)
	it := out.Iteration
	s := snap.State
	if ec := s.ErrorContext; ec == nil || ec.ExitCode != 3 || ec.Iteration != 1 || ec.StackTrace != "panic: boom\nexit 3" ||
		ec.ErrorMessage != "the agent exited with status 3" || ec.TimedOut {
		t.Fatalf("error context = %+v", s.ErrorContext)
	}
	clean := FingerprintRun(it.FailingTests, s.Progress.LastCompletionCheck, nil)
	if it.Fingerprint == "" || it.Fingerprint == clean {
		t.Errorf("fingerprint %q, clean run's %q: want them different", it.Fingerprint, clean)
	}
	if it.Agent == nil || it.TokensUsed == nil || *it.TokensUsed != 42 || it.TokenCostUSD == nil || *it.TokenCostUSD != 0.02 || it.DurationMS != 1500 {
		t.Errorf("agent usage = %+v tokens %v cost %v", it.Agent, it.TokensUsed, it.TokenCostUSD)
	}
	if s.Metrics.TotalTokens == nil || *s.Metrics.TotalTokens != 42 || s.Metrics.TotalCostUSD == nil || *s.Metrics.TotalCostUSD != 0.02 {
		t.Errorf("metrics = %+v", s.Metrics)
	}
	if p := Prompt(s); !strings.Contains(p, "the agent exited with status 3") || !strings.Contains(p, "panic: boom") {
		t.Errorf("prompt does not carry the agent's failure:\n%s", p)
	}
	// A timed-out agent fingerprints differently from one that exited.
	timedOut := &state.AgentRun{ExitCode: -1, TimedOut: true, TimeoutMS: 60000, DurationMS: 60004}
	if a, b := FingerprintRun(nil, s.Progress.LastCompletionCheck, timedOut), it.Fingerprint; a == b {
		t.Errorf("a timeout and an exit share the fingerprint %s", a)
	}
	if f := timedOut.Failure(); !strings.Contains(f, "iteration timeout (1m0s)") {
		t.Errorf("timeout failure = %q", f)
	}
	if f := (&state.AgentRun{ExitCode: -1, StartErr: "no such file"}).Failure(); f != "the agent could not be started: no such file" {
		t.Errorf("start failure = %q", f)
	}
	if f := (&state.AgentRun{}).Failure(); f != "" {
		t.Errorf("clean run failure = %q", f)
	}
}

// TestRecordInterrupted: a record whose context is cancelled (Ctrl-C)
// records nothing: no iteration, no tag, the state as it was.
func TestRecordInterrupted(t *testing.T) {
	t.Parallel()
	r := newLoopRepo(t)
	e := r.env()
	snap := r.start(e, StartOptions{Task: "fix", Completion: "true"})
	r.write("calc.go", fixedAdd)
	r.commit("iteration 1")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Record(ctx, e, snap, 0); err == nil {
		t.Fatal("an interrupted record succeeded")
	}
	if s := r.load(e, snap.State.LoopID).State; s.Iteration != 0 || len(s.IterationHistory) != 0 || s.Status != state.StatusRunning {
		t.Errorf("saved state after the interrupt: iteration %d, status %s", s.Iteration, s.Status)
	}
	if tags := r.git("tag", "--list", TagName(snap.State.LoopID, 1)); tags != "" {
		t.Errorf("an interrupted record tagged %s", tags)
	}
	// The next record records the iteration.
	if out := r.record(e, r.load(e, snap.State.LoopID)); out.Iteration.Iteration != 1 || out.Decision != Stopped {
		t.Errorf("record after the interrupt: %d %s", out.Iteration.Iteration, out.Decision)
	}
}

// TestRecordTestFileRemoved: removing a whole Go test file is a test
// deletion that blocks, naming the file's tests.
func TestRecordTestFileRemoved(t *testing.T) {
	t.Parallel()
	r := newLoopRepo(t)
	e := r.env()
	snap := r.start(e, StartOptions{Task: "fix", Completion: "false"})
	r.git("rm", "-q", "calc_test.go")
	r.git("commit", "-q", "-m", "no more failing tests")
	out := r.record(e, snap)
	it := out.Iteration
	if out.Decision != Blocked || !it.Void || snap.State.Status != state.StatusPaused || len(snap.State.PendingGates()) != 1 {
		t.Fatalf("outcome %s (%s), void %v", out.Decision, out.Reason, it.Void)
	}
	var del *gate.Finding
	for i, f := range it.Findings {
		if f.Type == gate.TestDeletion {
			del = &it.Findings[i]
		}
	}
	if del == nil || del.File != "calc_test.go" || del.Severity != gate.SeverityCritical || !del.Net {
		t.Fatalf("deletion finding = %+v in %+v", del, it.Findings)
	}
	if tests := strings.Join(append(del.Tests, del.Test), " "); !strings.Contains(tests, "TestAdd") || !strings.Contains(tests, "TestSub") {
		t.Errorf("the finding names %q, want TestAdd and TestSub", tests)
	}
	if len(it.Artifacts) != 1 || it.Artifacts[0].Change != "deleted" || it.Artifacts[0].Hash != "" {
		t.Errorf("artifacts = %+v", it.Artifacts)
	}
	if p := snap.State.DetectedPatterns; len(p) != 1 || p[0].PatternID != "LP-001" {
		t.Errorf("patterns = %+v", p)
	}
}
