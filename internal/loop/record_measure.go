package loop

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/loop/agentrun"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// The steps of Record that find out what the iteration is: measure,
// completion, historyEvidence and analyze (reuse for a no-op iteration).

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
	r.check = agentrun.RunCompletionAt(ctx, r.e.Store.Root, r.head, r.st.CompletionCriteria, r.set.CompletionTimeoutDuration(), r.n, r.now)
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
