package loop

import (
	"context"
	"fmt"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/errkind"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/collectors"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
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
