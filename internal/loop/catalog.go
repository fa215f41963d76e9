package loop

import (
	"fmt"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// aiwgPatterns is AIWG's laziness pattern catalogue
// (.aiwg/patterns/laziness-patterns.yaml of jmagly/ai-writing-guide,
// version 1.0.0): the ids detected_patterns[].pattern_id uses, with their
// names. ralph-gate names a finding by the catalogue entry that means the
// same thing, so AIWG tools reading state.json see their own ids with their
// own meaning.
var aiwgPatterns = map[string]string{
	"LP-001": "Complete Test File Deletion",
	"LP-002": "Test Suite Disabling",
	"LP-003": "Multiple Individual Test Disabling",
	"LP-004": "Test Commenting Out",
	"LP-005": "Feature Code Commenting",
	"LP-006": "Validation Removal",
	"LP-007": "Error Handler Deletion",
	"LP-008": "Feature Flag Disabling",
	"LP-009": "Massive Coverage Drop",
	"LP-010": "Significant Coverage Drop",
	"LP-011": "Branch Coverage Regression",
	"LP-012": "Trivial Assertion Replacement",
	"LP-013": "Assertion Deletion",
	"LP-014": "Mock Over-Usage",
	"LP-015": "Hardcoded Test Bypass",
	"LP-016": "Error Suppression",
	"LP-017": "Excessive Special Cases",
	"LP-018": "Return Null Instead of Throw",
	"LP-019": "TODO Comment Proliferation",
	"LP-020": "Iteration Limit Exceeded",
	"LP-021": "Scope Creep Avoidance",
	"LP-022": "Metric Optimization Over Intent",
	"LP-023": "Circular Test Logic",
	"LP-024": "Test Data Manipulation",
}

// ownPatterns are what ralph-gate detects and AIWG's catalogue has no entry
// for. Their ids are RG-NNN: never LP-NNN, which is AIWG's namespace (an
// LP-008 of ours would read as Feature Flag Disabling there).
var ownPatterns = map[string]string{
	"RG-001": "Test Regression (passed before, fails now)",
	"RG-002": "Unverified Change (evidence that cannot be read)",
	"RG-003": "Unwitnessed Change (no new test fails without it)",
	"RG-004": "Surviving Mutant (a changed line no test pins)",
}

// typePatterns name a finding the rule catalogue cannot: one with no rule,
// a rule it does not hold (loop state from another version), or a rule
// raised with another type than its own (the tamper check of a test HEAD
// no longer has is a test_deletion). Each is the pattern of its type's
// plainest reading; a critical coverage drop is LP-009.
var typePatterns = map[gate.FindingType]string{
	gate.TestDeletion:       "LP-001",
	gate.TestSkipping:       "LP-003",
	gate.AssertionWeakening: "LP-013",
	gate.ErrorSuppression:   "LP-016",
	gate.ValidationBypass:   "LP-006",
	gate.FeatureRemoval:     "LP-007",
	gate.CoverageRegression: "LP-010",
	gate.TestRegression:     "RG-001",
	gate.Unverified:         "RG-002",
}

// limitExceededID is AIWG's Iteration Limit Exceeded: no finding stands
// for it, the loop records it when it ends.
const limitExceededID = "LP-020"

// recordLimitExceeded records LP-020 in detected_patterns for a loop that
// ends at its iteration limit, iteration n, without the completion check
// passing (a loop whose check passed completed instead, whatever its
// iteration). An iteration records it once. It has no finding id: it is a
// fact of the loop, not a reading of a change a person could dispute.
func recordLimitExceeded(st *state.State, n int, now time.Time) {
	for _, it := range st.IterationHistory {
		if it.Verified {
			return
		}
	}
	for _, p := range st.DetectedPatterns {
		if p.PatternID == limitExceededID && p.Iteration == n {
			return
		}
	}
	st.DetectedPatterns = append(st.DetectedPatterns, state.Pattern{PatternID: limitExceededID, PatternName: aiwgPatterns[limitExceededID],
		Iteration: n, Timestamp: now, Severity: gate.SeverityHigh.String()})
}

// limitExceeded returns the LP-020 entry of the loop's current stop: nil
// unless the loop is stopped at the iteration it was recorded for (an
// extended and resumed loop is no longer stopped at its old limit).
func limitExceeded(st *state.State) *state.Pattern {
	if st.RalphGate.StopReason == "" {
		return nil
	}
	for i := len(st.DetectedPatterns) - 1; i >= 0; i-- {
		if p := &st.DetectedPatterns[i]; p.PatternID == limitExceededID && p.Iteration == st.Iteration {
			return p
		}
	}
	return nil
}

// limitLine says what an LP-020 entry means, for the status and analytics
// views.
func limitLine(p *state.Pattern) string {
	return fmt.Sprintf("%s %s (iteration %d): the iteration limit was reached without the completion check passing", p.PatternID, p.PatternName, p.Iteration)
}

// PatternOf is the detected_patterns id and name of a finding: the
// pattern the rule catalogue gives the finding's rule (gate.Rule.Pattern),
// an AIWG catalogue entry or ralph-gate's own.
func PatternOf(f gate.Finding) (id, name string) {
	id = patternID(f)
	if name, ok := ownPatterns[id]; ok {
		return id, name
	}
	return id, aiwgPatterns[id]
}

func patternID(f gate.Finding) string {
	if r, ok := gate.RuleByID(f.Rule); ok && r.Type == f.Type {
		return r.PatternFor(f.Severity)
	}
	id, ok := typePatterns[f.Type]
	if !ok {
		return "LP-022"
	}
	if f.Type == gate.CoverageRegression && f.Severity >= gate.SeverityCritical {
		return "LP-009"
	}
	return id
}
