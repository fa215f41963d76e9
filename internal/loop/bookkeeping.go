package loop

import (
	"sort"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/agent"

	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

func failStreak(st *state.State, passed bool) int {
	if passed {
		return 0
	}
	k := 1
	for i := len(st.IterationHistory) - 1; i >= 0; i-- {
		if st.IterationHistory[i].Verified {
			break
		}
		k++
	}
	return k
}

func stuck(st *state.State, fp string, after int) bool {
	if after < 2 || len(st.IterationHistory) < after-1 {
		return false
	}
	for _, it := range st.IterationHistory[len(st.IterationHistory)-(after-1):] {
		if it.Fingerprint != fp {
			return false
		}
	}
	return true
}

func changedPaths(changes []gitrepo.Change) []string {
	out := make([]string, 0, len(changes))
	for _, c := range changes {
		out = append(out, c.Path())
	}
	return out
}

func artifacts(repo *gitrepo.Repo, changes []gitrepo.Change) []state.Artifact {
	var out []state.Artifact
	for _, c := range changes {
		a := state.Artifact{Path: c.Path()}
		switch {
		case c.To.Path == "":
			a.Change = "deleted"
		case c.From.Path == "":
			a.Change = "added"
		case c.From.Path != c.To.Path:
			a.Change = "renamed from " + c.From.Path
		default:
			a.Change = "modified"
		}
		if c.To.Path != "" {
			a.Hash = c.To.Hash.String()
			if n, err := repo.BlobSize(c.To.Hash); err == nil {
				a.SizeBytes = int(n)
			}
		}
		out = append(out, a)
	}
	return out
}

func updateBest(st *state.State, now time.Time) {
	sel := SelectBest(st, st.RalphGate.Settings.QualityThreshold)
	if sel.Iteration == nil {
		st.BestIteration = nil
		return
	}
	if b := st.BestIteration; b != nil && b.Iteration == sel.Iteration.Iteration && b.SelectionReason == sel.Reason {
		return
	}
	st.BestIteration = &state.Best{Iteration: sel.Iteration.Iteration, QualityScore: sel.Iteration.QualityScore,
		SnapshotPath: sel.Iteration.SnapshotPath, UpdatedAt: now, SelectionReason: sel.Reason, Tag: sel.Iteration.Tag}
}

// finish ends a loop that stopped: completed when an iteration passed the
// completion command, failed otherwise.
func finish(st *state.State, now time.Time, reason string) {
	st.RalphGate.StopReason = reason
	for _, it := range st.IterationHistory {
		if it.Verified {
			st.Status = state.StatusCompleted
			st.CompletedAt = &now
			st.DetectionEnabled = false
			return
		}
	}
	// Stopped by a criterion or a budget without completion: the work is
	// not done, only this run of it. Left paused with its reason, the loop
	// can be resumed (resume --extend N adds iterations) or aborted.
	st.Status = state.StatusPaused
}

func updateMetrics(st *state.State, now time.Time) {
	m := &st.Metrics
	m.TotalIterations = len(st.IterationHistory)
	m.SuccessfulIterations, m.FailedIterations = 0, 0
	for _, it := range st.IterationHistory {
		// Successful: the completion passed on it and nothing regressed.
		// An iteration that did neither (a no-op, work still failing) is
		// counted as neither.
		switch {
		case it.Void || it.Regression:
			m.FailedIterations++
		case it.Verified:
			m.SuccessfulIterations++
		}
	}
	m.TotalTokens, m.TotalCostUSD = UsageTotals(st)
	m.TotalDurationSeconds = int(now.Sub(st.StartedAt).Seconds())
	if m.TotalIterations > 0 {
		m.AverageIterationTimeS = round1(float64(m.TotalDurationSeconds) / float64(m.TotalIterations))
	}
}

func percentile(ms []int, p int) int {
	if len(ms) == 0 {
		return 0
	}
	s := append([]int(nil), ms...)
	sort.Ints(s)
	i := (len(s)*p + 99) / 100
	if i < 1 {
		i = 1
	}
	return s[i-1]
}

// UsageTotals sums the tokens and cost the agent reported over the loop's
// iterations; each is nil when no iteration reported it.
func UsageTotals(st *state.State) (*int, *float64) {
	var tokens *int
	var cost *float64
	for _, it := range st.IterationHistory {
		if it.TokensUsed != nil {
			t := *it.TokensUsed
			if tokens != nil {
				t += *tokens
			}
			tokens = &t
		}
		if it.TokenCostUSD != nil {
			c := *it.TokenCostUSD
			if cost != nil {
				c = agent.AddCost(*cost, c)
			}
			cost = &c
		}
	}
	return tokens, cost
}

// UnreportedUsage counts the iterations run by `ralph-gate run` whose agent
// reported no usage: the totals leave them out, so a budget cannot trust
// them.
func UnreportedUsage(st *state.State) (tokens, cost int) {
	for _, it := range st.IterationHistory {
		if it.Agent == nil {
			continue
		}
		if it.TokensUsed == nil {
			tokens++
		}
		if it.TokenCostUSD == nil {
			cost++
		}
	}
	return tokens, cost
}

// UpdatePersistence computes persistence_metrics: detection latency over
// records and denied tool calls, the gate's overhead against the agent's
// time, and true and false positives (a human's marks).
func UpdatePersistence(st *state.State, calls ToolCallSummary) {
	pm := &st.PersistenceMetrics
	lat := append(append([]int(nil), st.RalphGate.DetectionLatencyMS...), calls.DeniedLatencyMS...)
	pm.DetectionLatencyP95MS = percentile(lat, 95)
	pm.DetectionLatencyP99MS = percentile(lat, 99)
	var gate, agent int64
	for _, it := range st.IterationHistory {
		if it.Agent != nil && it.Agent.DurationMS > 0 && it.GateMS > 0 {
			gate += it.GateMS
			agent += it.Agent.DurationMS
		}
	}
	pm.IntegrationOverheadPct = nil
	if agent > 0 {
		v := round1(float64(gate) * 100 / float64(agent))
		pm.IntegrationOverheadPct = &v
	}
	fp := map[string]bool{}
	for _, m := range st.RalphGate.FalsePositives {
		fp[m.FindingID] = true
	}
	pm.TruePositiveCount, pm.FalsePositiveCount = 0, len(st.RalphGate.FalsePositives)
	for _, p := range st.DetectedPatterns {
		if !fp[p.FindingID] {
			pm.TruePositiveCount++
		}
	}
	pm.TruePositiveCount += calls.Denied
	pm.FalsePositiveRate = nil
	if n := pm.TruePositiveCount + pm.FalsePositiveCount; n > 0 {
		v := float64(pm.FalsePositiveCount) / float64(n)
		v = float64(int(v*1000+0.5)) / 1000
		pm.FalsePositiveRate = &v
	}
}
