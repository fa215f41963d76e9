package loop

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitcmd"
	"github.com/ralph-gate/ralph-gate/internal/loop/agentrun"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// RunDecider is the decider `ralph-gate run` records on the rejects it
// makes itself.
const RunDecider = "ralph-gate run"

// DriveOptions are `ralph-gate run`'s.
type DriveOptions struct {
	// Agent is the agent's command line (run through sh -c).
	Agent string
	// IterationTimeout bounds one run of the agent (0: no bound).
	IterationTimeout time.Duration
	// BudgetUSD and BudgetTokens stop the loop once its totals reach them.
	BudgetUSD    *float64
	BudgetTokens *int
	// OnBlock is "reject" (restore, and go on with the evidence in the
	// prompt) or "stop" (a human decides at the first block).
	OnBlock string
	// PID is the controlling process's pid, recorded in the state.
	PID int
	// Echo receives the agent's standard error as it runs (nil: only the
	// log keeps it).
	Echo io.Writer
	// Say is told each step in one line (nil: nothing is said).
	Say func(format string, args ...any)
	// BeforeAgent, when set, runs before each start of the agent: it puts
	// the guard's hooks back where the agent may have removed them by means
	// the guard cannot see (the clients read their hooks when they start).
	BeforeAgent func() error
}

// DriveEnd is how a run ended.
type DriveEnd string

// Ends of a run; the CLI maps them to exit codes 0, 4, 1 and 130.
const (
	EndCompleted   DriveEnd = "completed"
	EndStopped     DriveEnd = "stopped"
	EndHuman       DriveEnd = "human"
	EndInterrupted DriveEnd = "interrupted"
)

// DriveResult is a run's end.
type DriveResult struct {
	End    DriveEnd
	Reason string
	// Last is the last iteration's outcome (nil when none was recorded).
	Last *Outcome
	// Iterations counts the iterations this run recorded.
	Iterations int
}

// BudgetError is a budget that cannot be kept: the agent did not report
// what the budget counts.
type BudgetError struct{ Msg string }

func (e *BudgetError) Error() string { return e.Msg }

// Drive runs the loop: the agent once per iteration, then what it left is
// committed and recorded exactly as `record` does, until the completion
// passes, a stop criterion or a budget ends it, a human must decide, or ctx
// is cancelled (Ctrl-C). The caller holds the loop's lock, so nothing else
// records meanwhile (not even the agent running `ralph-gate record`).
// Every way out leaves the loop without a controlling pid, and an
// interrupted loop paused; nothing is lost.
func Drive(ctx context.Context, e *Env, snap *state.Snapshot, opt DriveOptions) (res *DriveResult, err error) {
	say := opt.Say
	if say == nil {
		say = func(string, ...any) {}
	}
	st := snap.State
	res = &DriveResult{}
	if err := takeControl(e, snap, opt); err != nil {
		return nil, err
	}
	defer func() {
		// Whatever happened, the loop is left without a controller; an
		// interrupted run leaves it paused (resumable), never crashed.
		// An error while ctx is cancelled (a collector or git killed by the
		// interrupt) is the interrupt's doing: nothing was saved by the step
		// it stopped, and the loop is paused like any interrupted run.
		var tampered *state.TamperedError
		if errors.As(err, &tampered) {
			return // the files are evidence now: nothing is written over them
		}
		interrupted := ctx.Err() != nil
		if interrupted {
			res.End, res.Reason, err = EndInterrupted, "interrupted", nil
		}
		if rerr := releaseControl(e, snap, interrupted); rerr != nil && err == nil {
			err = rerr
		}
	}()

	if back, err := returnToLast(ctx, e, st); err != nil {
		return res, err
	} else if back != "" {
		say("%s", back)
	}
	// Work a run left behind (the agent was interrupted, or commits were
	// made between runs) is recorded before the agent runs again.
	if left, err := leftover(ctx, e, st); err != nil {
		return res, err
	} else if left != "" {
		say("recording the work left in the repository (%s) as iteration %d", left, st.Iteration+1)
		out, done, err := recordWork(ctx, e, snap, opt, nil, st.Iteration+1)
		if err != nil {
			return res, err
		}
		res.Last, res.Iterations = out, res.Iterations+1
		if done != nil {
			*res = mergeEnd(*res, done)
			return res, nil
		}
	}

	for {
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		if reason, err := budgetSpent(st, opt); err != nil {
			if serr := stopLoop(e, snap, "budget: "+err.Error()); serr != nil {
				return res, serr
			}
			return res, err
		} else if reason != "" {
			res.End, res.Reason = EndStopped, reason
			return res, stopLoop(e, snap, reason)
		}
		if max := st.Configuration.MaxIterations; max > 0 && st.Iteration >= max {
			// The last iteration was blocked and a human let it through:
			// the loop ends at its limit here, not in record.
			res.End, res.Reason = EndStopped, fmt.Sprintf("reached max_iterations (%d)", max)
			recordLimitExceeded(st, st.Iteration, e.now())
			return res, stopLoop(e, snap, res.Reason)
		}
		n := st.Iteration + 1
		promptPath, err := writePrompt(e.Store, st, n)
		if err != nil {
			return res, err
		}
		if opt.BeforeAgent != nil {
			if err := opt.BeforeAgent(); err != nil {
				return res, err
			}
		}
		say("iteration %d: running the agent (prompt %s)", n, rel(e.Store.Root, promptPath))
		run := agentrun.Run(ctx, agentrun.Spec{
			Command: opt.Agent, Dir: e.Store.Root, Prompt: promptPath, LoopID: st.LoopID, Iteration: n,
			Timeout: opt.IterationTimeout, Log: filepath.Join(e.Store.LoopDir(st.LoopID), "agent", fmt.Sprintf("iter-%03d.log", n)),
			Echo: opt.Echo, Env: e.AgentEnv,
		})
		if ctx.Err() != nil {
			say("iteration %d: interrupted; the agent was stopped and its work is left in the work tree (the next run records it)", n)
			return res, ctx.Err()
		}
		say("iteration %d: %s", n, agentSummary(run))
		out, done, err := recordWork(ctx, e, snap, opt, run, n)
		if err != nil {
			return res, err
		}
		res.Last, res.Iterations = out, res.Iterations+1
		if done != nil {
			*res = mergeEnd(*res, done)
			return res, nil
		}
	}
}

// mergeEnd keeps a result's counts with the end a step reached.
func mergeEnd(r DriveResult, done *DriveResult) DriveResult {
	r.End, r.Reason = done.End, done.Reason
	return r
}

// recordWork commits what is in the work tree and records it (a no-op
// iteration when nothing changed), then applies the decision: it returns a
// non-nil end when the run stops here.
func recordWork(ctx context.Context, e *Env, snap *state.Snapshot, opt DriveOptions, run *state.AgentRun, n int) (*Outcome, *DriveResult, error) {
	say := opt.Say
	if say == nil {
		say = func(string, ...any) {}
	}
	st := snap.State
	// The agent had its turn: the loop's files must be as run left them.
	if err := e.Store.Check(snap); err != nil {
		return nil, nil, err
	}
	msg := fmt.Sprintf("ralph-gate: iteration %d\n\nWhat the agent left uncommitted in iteration %d of %s, committed by ralph-gate run.\n", n, n, st.LoopID)
	t0 := time.Now()
	if _, err := agentrun.CommitWork(ctx, e.Store.Root, msg); err != nil {
		return nil, nil, err
	}
	e.Landed, e.CommitMS = time.Now(), time.Since(t0).Milliseconds()
	defer func() { e.Landed, e.CommitMS = time.Time{}, 0 }()
	head, err := e.Repo.Resolve("HEAD")
	if err != nil {
		return nil, nil, err
	}
	e.Agent = run
	defer func() { e.Agent = nil }()
	var out *Outcome
	if head.String() == st.RalphGate.LastCommit {
		say("iteration %d: the agent changed nothing (a no-op iteration)", n)
		out, err = RecordNoop(ctx, e, snap, opt.PID)
	} else {
		out, err = Record(ctx, e, snap, opt.PID)
	}
	if err != nil {
		return nil, nil, err
	}
	it := out.Iteration
	say("iteration %d: quality %.1f (%+.1f), completion %s; %s", it.Iteration, it.QualityScore, it.QualityDelta, passFail(it.Verified), out.Reason)
	shown := 0
	for _, f := range it.Findings {
		if f.Suppressed == "" && f.Net && f.Severity >= gate.SeverityMedium && shown < 10 {
			say("  %s %s %s: %s", f.Severity, f.Type, findingWhere(f.File, f.Line), f.Message)
			shown++
		}
	}
	switch out.Decision {
	case Stopped:
		if st.Status == state.StatusCompleted {
			return out, &DriveResult{End: EndCompleted, Reason: strings.TrimPrefix(out.Reason, "stop: ")}, nil
		}
		return out, &DriveResult{End: EndStopped, Reason: strings.TrimPrefix(out.Reason, "stop: ")}, nil
	case Blocked:
		if opt.OnBlock == "stop" {
			return out, &DriveResult{End: EndHuman, Reason: out.Reason + " (--on-block stop: a human decides)"}, nil
		}
		if out.Escalated {
			return out, &DriveResult{End: EndHuman, Reason: out.Reason + " (recovery escalated: a human decides)"}, nil
		}
		prev := e.Decider
		e.Decider = RunDecider
		g, commit, good, err := Reject(ctx, e, snap, out.Gate)
		e.Decider = prev
		if err != nil {
			return out, nil, err
		}
		say("iteration %d: rejected (gate %s): restored %s as commit %s; the next prompt carries the evidence", g.Iteration, g.RecoveryID, iterationName(good), commit[:7])
	}
	return out, nil, nil
}

func findingWhere(file string, line int) string {
	if line > 0 {
		return fmt.Sprintf("%s:%d", file, line)
	}
	return file
}

// takeControl makes this process the loop's controller: a paused loop
// (Ctrl-C, a stop criterion, a budget) is resumed, a loop whose controller
// died is taken over.
func takeControl(e *Env, snap *state.Snapshot, opt DriveOptions) error {
	st := snap.State
	if g := st.PendingGates(); len(g) > 0 {
		return &BlockedError{Msg: fmt.Sprintf("loop %s is waiting for a human decision on iteration %d (gate %s): run 'ralph-gate approve' or 'ralph-gate reject' (with --by NAME), then run again",
			st.LoopID, g[0].Iteration, g[0].RecoveryID)}
	}
	if st.Status.Terminal() {
		return inputf("loop %s is %s; start a new loop (ralph-gate run --task T --completion CMD)", st.LoopID, st.Status)
	}
	if st.Status == state.StatusPaused {
		if st.RalphGate.StopReason != "" && !strings.HasPrefix(st.RalphGate.StopReason, "budget") {
			if max := st.RalphGate.Settings.MaxIterations; st.Iteration >= max {
				return &StoppedError{Msg: fmt.Sprintf("loop %s stopped at iteration %d (%s): run --extend N adds N iterations to its %d", st.LoopID, st.Iteration, st.RalphGate.StopReason, max)}
			}
			st.RalphGate.WindowStart = st.Iteration
		}
		st.RalphGate.StopReason = ""
		st.Status = state.StatusRunning
	}
	pid := opt.PID
	st.PID = &pid
	now := e.now()
	st.LastUpdated = now
	if err := e.Store.Save(snap, "run", now); err != nil {
		return err
	}
	_ = e.Store.AppendLog(st.LoopID, hookEntry(now, "loop_run", st, st.Iteration, []string{fmt.Sprintf("ralph-gate run (pid %d) controls the loop; agent: %s", pid, opt.Agent)}))
	e.syncRegistry(st, now)
	return nil
}

// StoppedError is a loop that a stop criterion ended and that needs more
// iterations to go on.
type StoppedError struct{ Msg string }

func (e *StoppedError) Error() string { return e.Msg }

// releaseControl leaves the loop without a controller; an interrupted
// running loop is paused.
func releaseControl(e *Env, snap *state.Snapshot, interrupted bool) error {
	st := snap.State
	changed := st.PID != nil
	st.PID = nil
	if interrupted && st.Status == state.StatusRunning {
		st.Status, changed = state.StatusPaused, true
	}
	if !changed {
		return nil
	}
	now := e.now()
	st.LastUpdated = now
	if err := e.Store.Save(snap, "run", now); err != nil {
		return err
	}
	if interrupted {
		_ = e.Store.AppendLog(st.LoopID, hookEntry(now, "loop_pause", st, st.Iteration, []string{"ralph-gate run was interrupted: the loop is paused"}))
	}
	e.syncRegistry(st, now)
	return nil
}

// budgetSpent says whether the loop's totals reached a budget, and fails
// when a budget counts what the agent did not report.
func budgetSpent(st *state.State, opt DriveOptions) (string, error) {
	tokens, cost := UsageTotals(st)
	noTokens, noCost := UnreportedUsage(st)
	if b := opt.BudgetTokens; b != nil {
		if noTokens > 0 {
			return "", &BudgetError{Msg: fmt.Sprintf("--budget-tokens %d cannot be kept: the agent reported no token usage in %d iteration(s) (no usage line of a client ralph-gate knows on its standard output: use a preset of ralph-gate run, or an agent that prints its usage)", *b, noTokens)}
		}
		if tokens != nil && *tokens >= *b {
			return fmt.Sprintf("budget: the loop used %d tokens, its budget is %d (--budget-tokens)", *tokens, *b), nil
		}
	}
	if b := opt.BudgetUSD; b != nil {
		if noCost > 0 {
			return "", &BudgetError{Msg: fmt.Sprintf("--budget-usd %g cannot be kept: the agent reported no cost in %d iteration(s) (its usage lines carry tokens but no cost: use --budget-tokens)", *b, noCost)}
		}
		if cost != nil && *cost >= *b {
			return fmt.Sprintf("budget: the loop cost $%.4f, its budget is $%.4f (--budget-usd)", *cost, *b), nil
		}
	}
	return "", nil
}

// stopLoop leaves the loop paused with the reason it stopped (a budget:
// raise it and run again; a limit: run --extend N).
func stopLoop(e *Env, snap *state.Snapshot, reason string) error {
	st := snap.State
	now := e.now()
	st.Status = state.StatusPaused
	st.RalphGate.StopReason = reason
	st.LastUpdated = now
	if err := e.Store.Save(snap, "run", now); err != nil {
		return err
	}
	_ = e.Store.AppendLog(st.LoopID, hookEntry(now, "loop_stop", st, st.Iteration, []string{reason}))
	e.syncRegistry(st, now)
	return nil
}

// returnToLast moves HEAD back to the loop's last commit when an earlier
// run ended by checking out the best iteration (an ancestor of it) and the
// work tree is clean: the loop goes on from where it was, not from the best
// iteration. It says what it did ("" when nothing).
func returnToLast(ctx context.Context, e *Env, st *state.State) (string, error) {
	head, err := e.Repo.Resolve("HEAD")
	if err != nil {
		return "", err
	}
	last := st.RalphGate.LastCommit
	if head.String() == last {
		return "", nil
	}
	if _, err := gitcmd.Brief(ctx, e.Store.Root, "merge-base", "--is-ancestor", head.String(), last); err != nil {
		return "", nil // not behind the loop: leftover work, recorded next
	}
	if left, err := agentrun.Uncommitted(ctx, e.Store.Root); err != nil || left != "" {
		return "", err
	}
	target := last
	if b := st.RalphGate.Branch; b != "" {
		if tip, err := gitcmd.Brief(ctx, e.Store.Root, "rev-parse", "--verify", "-q", "refs/heads/"+b); err == nil && tip == last {
			target = b
		}
	}
	if _, err := gitcmd.Brief(ctx, e.Store.Root, "checkout", "-q", target); err != nil {
		return "", err
	}
	return fmt.Sprintf("HEAD was at %s, behind the loop's last commit (a best-iteration checkout): checked out %s to go on", short7(head.String()), target), nil
}

// leftover names work in the repository no iteration has recorded: commits
// after the loop's last commit, or uncommitted changes ("" when none).
func leftover(ctx context.Context, e *Env, st *state.State) (string, error) {
	head, err := e.Repo.Resolve("HEAD")
	if err != nil {
		return "", err
	}
	if head.String() != st.RalphGate.LastCommit {
		return "commits after " + short7(st.RalphGate.LastCommit), nil
	}
	left, err := agentrun.Uncommitted(ctx, e.Store.Root)
	if left != "" {
		left = "uncommitted changes: " + left
	}
	return left, err
}

// writePrompt writes iteration n's prompt: the task, then the loop's
// reinforcement text with its evidence.
func writePrompt(s *state.Store, st *state.State, n int) (string, error) {
	path := filepath.Join(s.LoopDir(st.LoopID), "prompts", fmt.Sprintf("iter-%03d.md", n))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	text := st.Task + "\n"
	if p := Prompt(st); p != "" {
		text += "\n" + p
	}
	return path, state.WriteAtomic(path, []byte(text))
}

func rel(root, path string) string {
	if r, err := filepath.Rel(root, path); err == nil {
		return filepath.ToSlash(r)
	}
	return path
}

// agentSummary is one line on how the agent's run ended.
func agentSummary(a *state.AgentRun) string {
	var b strings.Builder
	switch {
	case a.Failed():
		b.WriteString(a.Failure())
	default:
		b.WriteString("the agent finished")
	}
	fmt.Fprintf(&b, " in %s", (time.Duration(a.DurationMS) * time.Millisecond).Round(100*time.Millisecond))
	if u := a.Usage; u != nil {
		fmt.Fprintf(&b, ", %d tokens", u.TotalTokens)
		if u.CostUSD != nil {
			fmt.Fprintf(&b, ", $%.4f", *u.CostUSD)
		}
	} else {
		b.WriteString(", usage not reported")
	}
	fmt.Fprintf(&b, " (log %s)", a.Log)
	return b.String()
}
