package loop

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// MarkFalsePositive records a human's judgement that a finding was a false
// alarm: it counts in persistence_metrics (false_positive_count and rate)
// and, like an approval, never blocks again. id is a finding id, or a
// regression event id standing for its findings. The caller holds the lock.
func MarkFalsePositive(e *Env, snap *state.Snapshot, id, by string) ([]state.FalsePositive, error) {
	st := snap.State
	if strings.TrimSpace(by) == "" {
		return nil, inputf("marking a false positive needs the name of who judged it (--by NAME)")
	}
	type found struct {
		id, typ   string
		iteration int
	}
	var hits []found
	seen := map[string]bool{}
	add := func(fid, typ string, n int) {
		if !seen[fid] {
			seen[fid] = true
			hits = append(hits, found{fid, typ, n})
		}
	}
	for _, it := range st.IterationHistory {
		for _, f := range it.Findings {
			if f.ID == id {
				add(f.ID, string(f.Type), it.Iteration)
			}
		}
	}
	types := map[string]string{}
	for _, it := range st.IterationHistory {
		for _, f := range it.Findings {
			types[f.ID] = string(f.Type)
		}
	}
	for _, ev := range st.RegressionEvents {
		if ev.EventID == id {
			for _, fid := range ev.FindingIDs {
				// ralph-gate's own type, as a finding id gives it; the
				// event's AIWG type when the finding is not in the history.
				add(fid, cmp.Or(types[fid], ev.RegressionType), ev.Iteration)
			}
		}
	}
	if len(hits) == 0 {
		return nil, inputf("loop %s has no finding or regression event %q (ids are in status --regressions and record --format json)", st.LoopID, id)
	}
	now := e.now()
	marked := map[string]bool{}
	for _, m := range st.RalphGate.FalsePositives {
		marked[m.FindingID] = true
	}
	var added []state.FalsePositive
	for _, h := range hits {
		if marked[h.id] {
			continue
		}
		m := state.FalsePositive{FindingID: h.id, Type: h.typ, Iteration: h.iteration, By: by, MarkedAt: now}
		st.RalphGate.FalsePositives = append(st.RalphGate.FalsePositives, m)
		added = append(added, m)
		approved := false
		for _, a := range st.RalphGate.Approved {
			approved = approved || a == h.id
		}
		if !approved {
			st.RalphGate.Approved = append(st.RalphGate.Approved, h.id)
		}
	}
	if len(added) == 0 {
		return nil, nil
	}
	for i := range st.DetectedPatterns {
		if p := &st.DetectedPatterns[i]; seen[p.FindingID] {
			p.FalsePositive = true
		}
	}
	calls, _ := e.Store.ToolCalls(st.LoopID)
	UpdatePersistence(st, SummarizeToolCalls(calls))
	st.LastUpdated = now
	if err := e.Store.Save(snap, "mark-fp", now); err != nil {
		return nil, err
	}
	_ = e.Store.AppendLog(st.LoopID, hookEntry(now, "false_positive", st, st.Iteration,
		[]string{fmt.Sprintf("%s marked %d finding(s) as false positive: %s", by, len(added), id)}))
	return added, nil
}
