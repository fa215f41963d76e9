package loop

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

func ip(v int) *int { return &v }

func TestScoreDimensions(t *testing.T) {
	w := state.Defaults().Weights
	tests := []struct {
		name      string
		in        ScoreInput
		want      state.Breakdown
		wantScore float64
		wantVoid  bool
	}{
		{"all good", ScoreInput{CompletionPassed: true, Tests: &state.TestResults{Total: 4, Passed: 4}},
			state.Breakdown{Validation: 100, Completeness: 100, Correctness: 100, Readability: 100, Efficiency: 100}, 100, false},
		{"half the baseline failures fixed", ScoreInput{BaselineFailing: []string{"a", "b"}, Passing: []string{"a", "c"},
			Tests: &state.TestResults{Total: 4, Passed: 3, Failed: 1}},
			state.Breakdown{Validation: 100, Completeness: 37.5, Correctness: 75, Readability: 100, Efficiency: 100}, 78.1, false},
		{"a failure that no longer runs is not progress", ScoreInput{BaselineFailing: []string{"a"}, Passing: []string{},
			Tests: &state.TestResults{Total: 1, Failed: 1}}, state.Breakdown{Validation: 100, Completeness: 0, Correctness: 0, Readability: 100, Efficiency: 100}, 50, false},
		{"high and medium findings", ScoreInput{CompletionPassed: true, Tests: &state.TestResults{Total: 1, Passed: 1},
			Findings: []gate.Finding{{ID: "1", Severity: gate.SeverityHigh}, {ID: "2", Severity: gate.SeverityMedium}, {ID: "2", Severity: gate.SeverityMedium}}},
			state.Breakdown{Validation: 45, Completeness: 100, Correctness: 100, Readability: 100, Efficiency: 100}, 83.5, false},
		{"critical is void", ScoreInput{CompletionPassed: true, Tests: &state.TestResults{Total: 1, Passed: 1},
			Findings: []gate.Finding{{ID: "1", Severity: gate.SeverityCritical}}}, state.Breakdown{Validation: 0, Completeness: 100, Correctness: 100, Readability: 100, Efficiency: 100}, 70, true},
		{"no tests measured", ScoreInput{CompletionPassed: true}, state.Breakdown{Validation: 100, Completeness: 100, Correctness: 0, Readability: 100, Efficiency: 100}, 75, false},
		{"lint errors above the baseline", ScoreInput{CompletionPassed: true, Tests: &state.TestResults{Total: 1, Passed: 1},
			BaseLint: ip(2), Lint: ip(5), BaseType: ip(0), Type: ip(0)}, state.Breakdown{Validation: 100, Completeness: 100, Correctness: 100, Readability: 70, Efficiency: 100}, 97, false},
		{"lint measured at the baseline, missing now", ScoreInput{CompletionPassed: true, Tests: &state.TestResults{Total: 1, Passed: 1},
			BaseLint: ip(2)}, state.Breakdown{Validation: 100, Completeness: 100, Correctness: 100, Readability: 0, Efficiency: 100}, 90, false},
		{"complexity doubled", ScoreInput{CompletionPassed: true, Tests: &state.TestResults{Total: 1, Passed: 1},
			BaseComplexity: ip(100), Complexity: ip(150)}, state.Breakdown{Validation: 100, Completeness: 100, Correctness: 100, Readability: 100, Efficiency: 20}, 92, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			score, b, void, _ := Score(tt.in, w)
			if diff := cmp.Diff(tt.want, b); diff != "" {
				t.Errorf("breakdown (-want +got):\n%s", diff)
			}
			if score != tt.wantScore || void != tt.wantVoid {
				t.Errorf("score %v void %v, want %v %v", score, void, tt.wantScore, tt.wantVoid)
			}
		})
	}
	// Weights are honoured.
	w2 := map[string]float64{"validation": 50, "completeness": 50}
	if score, _, _, _ := Score(ScoreInput{CompletionPassed: true}, w2); score != 100 {
		t.Errorf("score with validation+completeness weights = %v, want 100", score)
	}
}

// loopWith builds a state whose history has these scores (negative: void).
func loopWith(scores ...float64) *state.State {
	st := &state.State{RalphGate: state.Extra{Settings: state.Defaults()}}
	prev := 0.0
	for i, s := range scores {
		it := state.Iteration{Iteration: i + 1, QualityScore: s, QualityDelta: s - prev}
		if s < 0 {
			it.QualityScore, it.Void, it.QualityDelta = -s, true, -s-prev
		}
		prev = it.QualityScore
		st.IterationHistory = append(st.IterationHistory, it)
	}
	return st
}

// fixOnePerIteration gives the loop seven tests failing at the baseline and
// makes each iteration fix one of them: an honest loop.
func fixOnePerIteration(st *state.State, _ *state.Iteration) {
	all := []string{"t1", "t2", "t3", "t4", "t5", "t6", "t7"}
	st.RalphGate.BaselineFailing = all
	for i := range st.IterationHistory {
		st.IterationHistory[i].TestResults = &state.TestResults{Total: 7, Failed: len(all) - i - 1}
		st.IterationHistory[i].FailingTests = all[i+1:]
	}
}

func TestStoppingCriteria(t *testing.T) {
	tests := []struct {
		name     string
		st       *state.State
		edit     func(*state.State, *state.Iteration)
		retrying bool
		elapsed  float64
		want     string // "" for continue
	}{
		{"completion passed", loopWith(50), func(_ *state.State, it *state.Iteration) { it.Verified = true }, false, 0, "completion command passed"},
		{"max iterations", loopWith(10, 20, 30), func(st *state.State, _ *state.Iteration) { st.RalphGate.Settings.MaxIterations = 3 }, false, 0, "max iterations reached"},
		{"timeout", loopWith(10, 30), func(st *state.State, _ *state.Iteration) { st.RalphGate.Settings.TimeoutMinutes = 5 }, false, 6, "timeout"},
		{"minimum not reached", loopWith(99), nil, false, 0, ""},
		{"quality threshold", loopWith(50, 60, 96), nil, false, 0, "reached the threshold"},
		{"quality threshold waits for the minimum", loopWith(50, 96), nil, false, 0, ""},
		{"too many regressions", loopWith(10, 30, 50, 70), func(st *state.State, _ *state.Iteration) {
			for i := 0; i < 3; i++ {
				st.IterationHistory[i].Regression = true
			}
		}, false, 0, "too many regressions"},
		{"improvement below threshold", loopWith(60, 62, 63, 64), nil, false, 0, "improvement below threshold in 3 iterations in a row"},
		{"one slow iteration is not a run", loopWith(10, 30, 50, 52), nil, false, 0, ""},
		{"worse than the best earlier one", loopWith(60, 80, 79, 78, 70), nil, false, 0, "over iteration 2's 80.0"},
		{"fixing a baseline failure each iteration is progress", loopWith(60, 62, 63, 64), fixOnePerIteration, false, 0, ""},
		{"fixing nothing more is not", loopWith(60, 62, 63, 64, 65, 66), func(st *state.State, it *state.Iteration) {
			fixOnePerIteration(st, it)
			for i := 3; i < 6; i++ { // iterations 4 to 6 fix nothing more
				st.IterationHistory[i].FailingTests = st.IterationHistory[2].FailingTests
			}
		}, false, 0, "improvement below threshold"},
		{"a void best does not count", loopWith(40, -90, 60), nil, false, 0, ""},
		{"retrying waits", loopWith(60, 62, 63, 64), nil, true, 0, ""},
		{"plateau", loopWith(10, 20, 30, 31, 32, 33), func(st *state.State, _ *state.Iteration) { st.RalphGate.Settings.ImprovementStop = 0 }, false, 0, "quality plateau"},
		{"improving", loopWith(10, 30, 50), nil, false, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cur := &tt.st.IterationHistory[len(tt.st.IterationHistory)-1]
			if tt.edit != nil {
				tt.edit(tt.st, cur)
			}
			got := CheckStop(tt.st, cur, tt.retrying, tt.elapsed)
			if tt.want == "" && got.Stop || tt.want != "" && (!got.Stop || !strings.Contains(got.Reason, tt.want)) {
				t.Errorf("CheckStop = %+v, want %q", got, tt.want)
			}
		})
	}
}

func TestBestSelection(t *testing.T) {
	tests := []struct {
		name      string
		st        *state.State
		edit      func(*state.State)
		threshold float64
		want      int // 0: none
		reason    string
	}{
		{"highest", loopWith(60, 85, 80), nil, 70, 2, "at iteration 2, not the final iteration 3"},
		{"ties to the earliest", loopWith(80, 90, 90), nil, 70, 2, ""},
		{"void excluded", loopWith(80, -95), nil, 70, 1, ""},
		{"verified first", loopWith(90, 75), func(st *state.State) { st.IterationHistory[1].Verified = true }, 70, 2, "completion command passed"},
		{"none above the threshold", loopWith(50, 65), nil, 70, 0, "the best one below it is iteration 2 (65.0)"},
		{"all void", loopWith(-80), nil, 70, 0, "every recorded iteration is void"},
		{"require verification", loopWith(90), func(st *state.State) { st.RalphGate.Settings.RequireVerification = true }, 70, 0, "require_verification"},
		{"the final one", loopWith(60, 85), nil, 70, 2, "final iteration was also the best"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.edit != nil {
				tt.edit(tt.st)
			}
			sel := SelectBest(tt.st, tt.threshold)
			got := 0
			if sel.Iteration != nil {
				got = sel.Iteration.Iteration
			}
			if got != tt.want || !strings.Contains(sel.Reason, tt.reason) {
				t.Errorf("SelectBest = %d (%s), want %d (%q)", got, sel.Reason, tt.want, tt.reason)
			}
		})
	}
}

// TestScoreBranches: readability and correctness when measures are
// missing on one side.
func TestScoreBranches(t *testing.T) {
	t.Parallel()
	two, four := 2, 4
	w := state.Defaults().Weights
	_, b, void, notes := Score(ScoreInput{Lint: &two, Tests: &state.TestResults{}}, w)
	if b.Readability != 80 || void || len(notes) != 1 || notes[0] != "correctness is 0: no tests ran" {
		t.Errorf("lint only now: %+v, %q", b, notes)
	}
	_, b, _, notes = Score(ScoreInput{BaseType: &two, Tests: nil}, w)
	if b.Readability != 0 || len(notes) != 2 || !strings.Contains(strings.Join(notes, "\n"), "missing now") {
		t.Errorf("type errors gone missing: %+v, %q", b, notes)
	}
	_, b, _, _ = Score(ScoreInput{BaseLint: &four, Lint: &two, BaseComplexity: &two, Complexity: &four}, w)
	if b.Readability != 100 || b.Efficiency != 0 {
		t.Errorf("fewer lint errors, doubled complexity: %+v", b)
	}
	_, b, _, _ = Score(ScoreInput{BaselineFailing: []string{"a", "b"}, Passing: []string{"a"}, Tests: &state.TestResults{Total: 4, Passed: 3}}, w)
	if b.Completeness != 37.5 || b.Correctness != 75 {
		t.Errorf("half the baseline failures fixed: %+v", b)
	}
	score, b, void, _ := Score(ScoreInput{Findings: []gate.Finding{
		{ID: "1", Severity: gate.SeverityHigh}, {ID: "1", Severity: gate.SeverityHigh}, {ID: "2", Severity: gate.SeverityHigh},
		{ID: "3", Severity: gate.SeverityHigh}, {ID: "4", Severity: gate.SeverityMedium}}, CompletionPassed: true}, w)
	if b.Validation != 0 || void || b.Completeness != 100 || score != 45 {
		t.Errorf("many findings: %.1f %+v void %v", score, b, void)
	}
}
