package loop

import (
	"fmt"
	"math"
	"sort"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// ScoreInput is what an iteration's quality score is computed from: measured
// signals only, never what the agent says.
type ScoreInput struct {
	// Findings are the iteration's unsuppressed, unapproved findings: its net
	// change against the baseline, its change against the previous iteration
	// and the loop history's evidence.
	Findings []gate.Finding
	// CompletionPassed is the completion command's result.
	CompletionPassed bool
	// BaselineFailing are the tests failing at start; Passing those passing
	// now (nil: tests were not measured). A test that no longer fails because
	// it no longer runs (a build failure, a deletion) is not progress.
	BaselineFailing []string
	Passing         []string
	// Tests are the measured outcomes (nil: not measured).
	Tests *state.TestResults
	// Lint and type-check errors at the baseline and now (nil: not measured).
	BaseLint, BaseType, Lint, Type *int
	// Complexity of the tree at the baseline and now.
	BaseComplexity, Complexity *int
}

// Score computes the quality score (0-100), its breakdown, whether the
// iteration is void, and notes on dimensions that could not be measured.
//
//	validation   100 minus 40 per high, 15 per medium, 5 per low finding; 0 and void on a critical one
//	completeness 100 when the completion command passes; otherwise 75 x the share of
//	             the tests failing at the baseline that pass now (0 when none failed)
//	correctness  100 x passed / total measured tests (skipped ones count in total); 0 when not measured
//	readability  100 minus 10 per lint or type error above the baseline; 100 when the
//	             loop measures neither; 0 when a baseline measurement is missing now
//	efficiency   100 while complexity stays within 110% of the baseline, then minus 2
//	             points per percent above it
//
// The score is the weighted sum of the dimensions (weights summing to 100),
// rounded to one decimal.
func Score(in ScoreInput, weights map[string]float64) (float64, state.Breakdown, bool, []string) {
	var b state.Breakdown
	var notes []string
	void := false

	// A critical finding makes the iteration void: validation 0 and never
	// eligible as best (gate.ValidationScore, the Action's score too).
	b.Validation, void = gate.ValidationScore(in.Findings)

	switch {
	case in.CompletionPassed:
		b.Completeness = 100
	case len(in.BaselineFailing) > 0 && in.Passing != nil:
		passing := set(in.Passing)
		fixed := 0
		for _, id := range in.BaselineFailing {
			if passing[id] {
				fixed++
			}
		}
		b.Completeness = 75 * float64(fixed) / float64(len(in.BaselineFailing))
	}

	switch {
	case in.Tests == nil:
		notes = append(notes, "correctness is 0: no test results were measured")
	case in.Tests.Total == 0:
		notes = append(notes, "correctness is 0: no tests ran")
	default:
		b.Correctness = 100 * float64(in.Tests.Passed) / float64(in.Tests.Total)
	}

	b.Readability = 100
	for _, pair := range [][2]*int{{in.BaseLint, in.Lint}, {in.BaseType, in.Type}} {
		base, cur := pair[0], pair[1]
		switch {
		case base == nil && cur == nil:
		case cur == nil:
			b.Readability = 0
			notes = append(notes, "readability is 0: lint or type errors measured at the baseline are missing now")
		case base == nil:
			b.Readability -= 10 * float64(*cur)
		default:
			if *cur > *base {
				b.Readability -= 10 * float64(*cur-*base)
			}
		}
	}
	b.Readability = math.Max(0, b.Readability)

	b.Efficiency = 100
	if in.BaseComplexity != nil && in.Complexity != nil && *in.BaseComplexity > 0 {
		ratio := float64(*in.Complexity) / float64(*in.BaseComplexity)
		if ratio > 1.1 {
			b.Efficiency = math.Max(0, 100-(ratio-1.1)*200)
		}
	}

	b = state.Breakdown{Validation: round1(b.Validation), Completeness: round1(b.Completeness), Correctness: round1(b.Correctness), Readability: round1(b.Readability), Efficiency: round1(b.Efficiency)}
	score := (b.Validation*weights["validation"] + b.Completeness*weights["completeness"] +
		b.Correctness*weights["correctness"] + b.Readability*weights["readability"] +
		b.Efficiency*weights["efficiency"]) / 100
	return round1(score), b, void, notes
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }

// Stop is a stopping decision.
type Stop struct {
	Stop   bool
	Reason string
}

// CheckStop applies the seeds' stopping decision flow (iteration-analytics) to
// the loop after cur was appended to its history: hard limits, the minimum,
// quality, improvement, plateau and regression protection. retrying is set
// while a recovery retry is pending: the improvement and plateau criteria wait
// for the retry.
func CheckStop(st *state.State, cur *state.Iteration, retrying bool, elapsedMin float64) Stop {
	set := st.RalphGate.Settings
	if cur.Verified {
		return Stop{true, "the completion command passed"}
	}
	if cur.Iteration >= set.MaxIterations {
		return Stop{true, fmt.Sprintf("max iterations reached (%d)", set.MaxIterations)}
	}
	if set.TimeoutMinutes > 0 && elapsedMin >= float64(set.TimeoutMinutes) {
		return Stop{true, fmt.Sprintf("timeout reached (%d minutes)", set.TimeoutMinutes)}
	}
	if len(st.IterationHistory) < set.MinIterations {
		return Stop{}
	}
	if !cur.Void && set.QualityStop > 0 && cur.QualityScore >= set.QualityStop {
		return Stop{true, fmt.Sprintf("quality %.1f reached the threshold %.0f", cur.QualityScore, set.QualityStop)}
	}
	regressed := 0
	for _, it := range st.IterationHistory {
		if it.Regression && it.Iteration > st.RalphGate.WindowStart {
			regressed++
		}
	}
	if regressed > set.MaxRegressions {
		return Stop{true, fmt.Sprintf("too many regressions (%d iterations regressed, at most %d allowed)", regressed, set.MaxRegressions)}
	}
	if retrying || cur.Void {
		return Stop{}
	}
	// Improvement and plateau judge a run of iterations, never one: both
	// need the last plateau_window non-void iterations in a row to qualify,
	// and an iteration that fixed a test failing at the baseline is progress
	// whatever its score moved, so it breaks the run. An honest loop that
	// fixes one thing per iteration is never cut off.
	w := max(set.PlateauWindow, 1)
	recent, ok := lastRun(st, w)
	if !ok {
		return Stop{}
	}
	if set.ImprovementStop > 0 {
		below := true
		var gain float64
		var best *state.Iteration
		for _, it := range recent {
			best = bestBefore(st, it.Iteration)
			if best == nil {
				below = false
				break
			}
			if gain = it.QualityScore - best.QualityScore; gain >= set.ImprovementStop {
				below = false
				break
			}
		}
		if below {
			return Stop{true, fmt.Sprintf("improvement below threshold in %d iterations in a row (the last: %+.1f over iteration %d's %.1f < %.0f points)",
				w, gain, best.Iteration, best.QualityScore, set.ImprovementStop)}
		}
	}
	if set.PlateauWindow > 0 {
		sum := 0.0
		for _, it := range recent {
			sum += it.QualityDelta
		}
		if mean := sum / float64(w); mean < set.PlateauThreshold {
			return Stop{true, fmt.Sprintf("quality plateau (mean improvement %+.1f over the last %d iterations < %.0f)", mean, w, set.PlateauThreshold)}
		}
	}
	return Stop{}
}

// lastRun returns the last n iterations of the history when all of them are
// non-void and none fixed a test failing at the baseline; ok is false
// otherwise, or when the history is shorter.
func lastRun(st *state.State, n int) (run []*state.Iteration, ok bool) {
	h := st.IterationHistory
	if len(h) < n || h[len(h)-n].Iteration <= st.RalphGate.WindowStart {
		return nil, false
	}
	for i := len(h) - n; i < len(h); i++ {
		if h[i].Void || fixedBaselineFailure(st, i) {
			return nil, false
		}
		run = append(run, &h[i])
	}
	return run, true
}

// fixedBaselineFailure reports whether history[i] made a test pass that
// failed at the baseline and at the iteration before it. Only iterations
// whose tests were measured can fix one.
func fixedBaselineFailure(st *state.State, i int) bool {
	h := st.IterationHistory
	if h[i].TestResults == nil || len(st.RalphGate.BaselineFailing) == 0 {
		return false
	}
	before := st.RalphGate.BaselineFailing
	for j := i - 1; j >= 0; j-- {
		if !h[j].Void && h[j].TestResults != nil {
			before = h[j].FailingTests
			break
		}
	}
	failingBefore := map[string]bool{}
	for _, t := range before {
		failingBefore[t] = true
	}
	failingNow := map[string]bool{}
	for _, t := range h[i].FailingTests {
		failingNow[t] = true
	}
	for _, t := range st.RalphGate.BaselineFailing {
		if failingBefore[t] && !failingNow[t] {
			return true
		}
	}
	return false
}

// bestBefore is the highest-scoring non-void iteration before n.
func bestBefore(st *state.State, n int) *state.Iteration {
	var best *state.Iteration
	for i := range st.IterationHistory {
		it := &st.IterationHistory[i]
		if it.Iteration >= n || it.Void {
			continue
		}
		if best == nil || it.QualityScore > best.QualityScore {
			best = it
		}
	}
	return best
}

// Selection is the best iteration and why.
type Selection struct {
	Iteration *state.Iteration
	Reason    string
	// Candidates counts the iterations that met the threshold.
	Candidates int
}

// SelectBest is the seeds' best output selection: non-void iterations at or
// above the quality threshold; verified ones (the completion command passed)
// first; the highest score; ties to the earliest. With none above the
// threshold, Iteration is nil and Reason names the best one below it.
func SelectBest(st *state.State, threshold float64) Selection {
	var acceptable []*state.Iteration
	var below *state.Iteration
	for i := range st.IterationHistory {
		it := &st.IterationHistory[i]
		if it.Void {
			continue
		}
		if it.QualityScore >= threshold {
			acceptable = append(acceptable, it)
		} else if below == nil || it.QualityScore > below.QualityScore {
			below = it
		}
	}
	if len(acceptable) == 0 {
		if below == nil {
			return Selection{Reason: "no iteration is eligible: every recorded iteration is void"}
		}
		return Selection{Reason: fmt.Sprintf("no iteration reaches the quality threshold %.0f; the best one below it is iteration %d (%.1f)",
			threshold, below.Iteration, below.QualityScore)}
	}
	cands := acceptable
	verified := false
	var ver []*state.Iteration
	for _, it := range acceptable {
		if it.Verified {
			ver = append(ver, it)
		}
	}
	if len(ver) > 0 {
		cands, verified = ver, true
	} else if st.RalphGate.Settings.RequireVerification {
		return Selection{Reason: fmt.Sprintf("no iteration at or above %.0f passed the completion command (require_verification is on)", threshold)}
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].QualityScore != cands[j].QualityScore {
			return cands[i].QualityScore > cands[j].QualityScore
		}
		return cands[i].Iteration < cands[j].Iteration
	})
	best := cands[0]
	last := st.IterationHistory[len(st.IterationHistory)-1].Iteration
	var reason string
	switch {
	case best.Iteration == last:
		reason = fmt.Sprintf("Highest quality score (%.1f); the final iteration was also the best", best.QualityScore)
	default:
		reason = fmt.Sprintf("Highest quality score (%.1f) at iteration %d, not the final iteration %d", best.QualityScore, best.Iteration, last)
	}
	if verified {
		reason += "; its completion command passed"
	}
	return Selection{Iteration: best, Reason: reason, Candidates: len(acceptable)}
}
