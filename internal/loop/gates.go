package loop

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/gitcmd"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/loop/agentrun"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// Human decisions at the gate.
const (
	DecisionApprove = "approve"
	DecisionReject  = "reject"
	DecisionAbort   = "abort"
)

// FindGate returns the pending gate id names: a recovery id, a regression
// event id of the gate's iteration, or "" for the only pending gate.
func FindGate(st *state.State, id string) (*state.Recovery, error) {
	pending := st.PendingGates()
	if len(pending) == 0 {
		return nil, inputf("loop %s has no decision pending", st.LoopID)
	}
	if id == "" {
		if len(pending) > 1 {
			var ids []string
			for _, g := range pending {
				ids = append(ids, g.RecoveryID)
			}
			return nil, inputf("loop %s has %d decisions pending (%s): name one", st.LoopID, len(pending), strings.Join(ids, ", "))
		}
		return pending[0], nil
	}
	for _, g := range pending {
		if g.RecoveryID == id {
			return g, nil
		}
		for _, ev := range st.RegressionEvents {
			if ev.EventID == id && ev.Iteration == g.Iteration {
				return g, nil
			}
		}
	}
	return nil, inputf("loop %s has no pending decision %q (pending: %s)", st.LoopID, id, pending[0].RecoveryID)
}

// decide records a human decision on a gate and its iteration's events.
func decide(st *state.State, g *state.Recovery, decision, note string, now time.Time) {
	g.ProtocolSteps.Escalate.HumanDecision = decision
	if note != "" {
		g.ProtocolSteps.Escalate.HumanDecision = decision + " - " + note
	}
	for i := range st.RegressionEvents {
		ev := &st.RegressionEvents[i]
		if ev.Iteration == g.Iteration && ev.HumanGateInvoked && ev.HumanDecision == nil {
			d := decision
			ev.HumanDecision = &d
			t := now
			ev.DecidedAt = &t
		}
	}
}

// Approve accepts a blocked iteration's changes: the loop continues from it
// and its findings never block again. The iteration stays void (never
// selected as best): a human let it through, nothing measured it as good.
func Approve(e *Env, snap *state.Snapshot, gateID string) (*state.Recovery, error) {
	st := snap.State
	g, err := FindGate(st, gateID)
	if err != nil {
		return nil, err
	}
	now := e.now()
	decide(st, g, DecisionApprove, e.byDecider(), now)
	g.Outcome = "escalated"
	if it := st.Find(g.Iteration); it != nil {
		for _, f := range it.Findings {
			if f.Suppressed == "" && f.Severity >= gate.SeverityMedium {
				st.RalphGate.Approved = append(st.RalphGate.Approved, f.ID)
			}
		}
	}
	if st.Status == state.StatusPaused && len(st.PendingGates()) == 0 {
		st.Status = state.StatusRunning
	}
	st.LastUpdated = now
	if err := e.Store.Save(snap, "approve", now); err != nil {
		return nil, err
	}
	_ = e.Store.AppendLog(st.LoopID, hookEntry(now, "human_gate", st, g.Iteration, []string{joinNotes("approved gate "+g.RecoveryID, e.byDecider())}))
	e.syncRegistry(st, now)
	return g, nil
}

// Reject undoes a blocked iteration: the tree of the last good iteration
// (the latest non-void one before it, else the baseline) is committed on top
// of HEAD as a new commit, so history is never rewritten or lost, and the loop
// continues from there. It refuses a work tree with uncommitted changes.
func Reject(ctx context.Context, e *Env, snap *state.Snapshot, gateID string) (*state.Recovery, string, int, error) {
	st := snap.State
	g, err := FindGate(st, gateID)
	if err != nil {
		return nil, "", 0, err
	}
	if dirty, err := Dirty(ctx, e.Store.Root); err != nil {
		return nil, "", 0, err
	} else if dirty != "" {
		return nil, "", 0, inputf("the work tree has uncommitted changes (%s); commit or stash them before reject, which commits the restored tree", dirty)
	}
	good, goodCommit := 0, st.RalphGate.BaselineCommit
	for _, it := range st.IterationHistory {
		if it.Iteration < g.Iteration && !it.Void {
			good, goodCommit = it.Iteration, it.Commit
		}
	}
	now := e.now()
	msg := fmt.Sprintf("ralph-gate: reject iteration %d of %s, restore iteration %d\n\nThe human gate %s rejected iteration %d (%s).\nThis commit restores the tree of %s.\n",
		g.Iteration, st.LoopID, good, g.RecoveryID, g.Iteration, g.Trigger, TagName(st.LoopID, good))
	tree, err := gitcmd.Brief(ctx, e.Store.Root, "rev-parse", goodCommit+"^{tree}")
	if err != nil {
		return nil, "", 0, err
	}
	commit, err := gitcmd.Brief(ctx, e.Store.Root, agentrun.WithIdentity(ctx, e.Store.Root, "commit-tree", tree, "-p", "HEAD", "-m", msg)...)
	if err != nil {
		return nil, "", 0, err
	}
	if _, err := gitcmd.Brief(ctx, e.Store.Root, "merge", "--ff-only", "-q", commit); err != nil {
		return nil, "", 0, err
	}
	decide(st, g, DecisionReject, joinNotes(e.byDecider(), fmt.Sprintf("restored iteration %d as %s", good, commit[:7])), now)
	restored := good
	g.RestoredIteration, g.RestoreCommit = &restored, commit
	for i := range st.RegressionEvents {
		ev := &st.RegressionEvents[i]
		if ev.Iteration == g.Iteration {
			gi := good
			ev.RestoredIteration, ev.RestoreCommit = &gi, commit
		}
	}
	st.RalphGate.LastCommit = commit
	if st.Status == state.StatusPaused && len(st.PendingGates()) == 0 {
		st.Status = state.StatusRunning
	}
	st.LastUpdated = now
	if err := e.Store.Save(snap, "reject", now); err != nil {
		return nil, "", 0, err
	}
	_ = e.Store.AppendLog(st.LoopID, hookEntry(now, "human_gate", st, g.Iteration,
		[]string{fmt.Sprintf("rejected gate %s; restored iteration %d as commit %s", g.RecoveryID, good, commit[:7])}))
	e.syncRegistry(st, now)
	return g, commit, good, nil
}

// Transition moves a loop to another status (pause, resume, abort),
// following loop-state.yaml's allowed transitions.
func Transition(e *Env, snap *state.Snapshot, to state.Status, op string) error {
	st := snap.State
	from := st.Status
	if crashed(st) {
		from = state.StatusCrashed
	}
	if to == state.StatusRunning && len(st.PendingGates()) > 0 {
		return inputf("loop %s waits for a human decision on iteration %d: approve or reject it instead of resuming", st.LoopID, st.PendingGates()[0].Iteration)
	}
	if from == state.StatusCrashed && to == state.StatusAborted {
		// A crashed loop can still be cleared away.
	} else if !state.CanMove(from, to) {
		allowed := state.Allowed(from)
		var names []string
		for _, s := range allowed {
			names = append(names, string(s))
		}
		list := "none: it is finished"
		if len(names) > 0 {
			list = strings.Join(names, ", ")
		}
		return inputf("cannot %s loop %s: it is %s (allowed from %s: %s)", op, st.LoopID, from, from, list)
	}
	if to == state.StatusRunning && from == state.StatusPaused && st.RalphGate.StopReason != "" {
		if max := st.RalphGate.Settings.MaxIterations; st.Iteration >= max {
			return inputf("loop %s stopped at iteration %d (%s): resume --extend N adds N iterations to its %d", st.LoopID, st.Iteration, st.RalphGate.StopReason, max)
		}
		// A fresh window for the improvement and plateau criteria.
		st.RalphGate.StopReason = ""
		st.RalphGate.WindowStart = st.Iteration
	}
	now := e.now()
	if to == state.StatusAborted {
		for _, g := range st.PendingGates() {
			decide(st, g, DecisionAbort, e.byDecider(), now)
			g.Outcome = "aborted"
		}
		st.CompletedAt = &now
		st.DetectionEnabled = false
		st.RalphGate.StopReason = "aborted by a human"
		if e.Decider != "" {
			st.RalphGate.StopReason = "aborted by " + e.Decider
		}
	}
	st.Status = to
	st.LastUpdated = now
	if err := e.Store.Save(snap, op, now); err != nil {
		return err
	}
	_ = e.Store.AppendLog(st.LoopID, hookEntry(now, "loop_"+op, st, st.Iteration, []string{fmt.Sprintf("%s -> %s", from, to)}))
	e.syncRegistry(st, now)
	return nil
}

func (e *Env) syncRegistry(st *state.State, now time.Time) {
	_ = e.Store.UpdateRegistry(now, func(r *state.Registry) error { r.Sync(st, now); return nil })
}

// Dirty reports the first uncommitted change of the work tree ("" when
// clean). Loop state under .aiwg/ralph/ is excluded from git and not seen.
func Dirty(ctx context.Context, dir string) (string, error) {
	out, err := gitcmd.Brief(ctx, dir, "status", "--porcelain", "--untracked-files=no")
	if err != nil {
		return "", err
	}
	if out == "" {
		return "", nil
	}
	line, _, _ := strings.Cut(out, "\n")
	return strings.TrimSpace(line), nil
}

// Checkout checks out an iteration (detached HEAD), refusing a dirty work
// tree. The commit checked out is the one the sealed state recorded: a tag
// moved since (tags are the agent's to change) is put back where the
// iteration was, and the note says so.
func Checkout(ctx context.Context, dir string, it *state.Iteration) (note string, err error) {
	if dirty, err := Dirty(ctx, dir); err != nil {
		return "", err
	} else if dirty != "" {
		return "", inputf("the work tree has uncommitted changes (%s); commit or stash them first: nothing was changed", dirty)
	}
	if at, err := gitcmd.Brief(ctx, dir, "rev-parse", "-q", "--verify", it.Tag+"^{commit}"); err != nil || at != it.Commit {
		moved := "was missing"
		if err == nil {
			moved = "pointed at " + short7(at)
		}
		if _, err := gitcmd.Brief(ctx, dir, "tag", "-f", it.Tag, it.Commit); err != nil {
			return "", err
		}
		note = fmt.Sprintf("tag %s %s, not at iteration %d's recorded commit %s: it was changed outside ralph-gate and is put back", it.Tag, moved, it.Iteration, short7(it.Commit))
	}
	_, err = gitcmd.Brief(ctx, dir, "checkout", "-q", it.Commit)
	return note, err
}

// ExtendIterations adds n iterations to the loop's maximum (resume --extend
// N, run --extend N).
func ExtendIterations(st *state.State, n int) {
	st.RalphGate.Settings.MaxIterations += n
	st.Configuration.MaxIterations += n
}

// joinNotes joins the non-empty notes with "; ".
func joinNotes(notes ...string) string {
	var out []string
	for _, n := range notes {
		if n != "" {
			out = append(out, n)
		}
	}
	return strings.Join(out, "; ")
}

// MoveLostTags moves the tags of iterations after upTo, which a repair
// left out of the loop's history, to ralph/{loop_id}/lost/iter-NNN-{commit}:
// the commits stay reachable and named, and the numbers are free for the
// iterations recorded from now on. It returns the new tag names.
func MoveLostTags(ctx context.Context, dir, id string, upTo int) ([]string, error) {
	out, err := gitcmd.Brief(ctx, dir, "for-each-ref", "--format=%(refname:strip=2) %(objectname)", "refs/tags/ralph/"+id+"/")
	if err != nil {
		return nil, err
	}
	var moved []string
	for _, line := range strings.Split(out, "\n") {
		name, commit, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok {
			continue
		}
		var n int
		if _, err := fmt.Sscanf(strings.TrimPrefix(name, "ralph/"+id+"/"), "iter-%d", &n); err != nil || n <= upTo {
			continue
		}
		lost := fmt.Sprintf("ralph/%s/lost/iter-%03d-%s", id, n, commit[:7])
		if _, err := gitcmd.Brief(ctx, dir, "tag", "-f", lost, commit); err != nil {
			return moved, err
		}
		if _, err := gitcmd.Brief(ctx, dir, "tag", "-d", name); err != nil {
			return moved, err
		}
		moved = append(moved, lost)
	}
	return moved, nil
}
