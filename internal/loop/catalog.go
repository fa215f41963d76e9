package loop

import (
	"fmt"
	"strings"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/gate"
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
var ownPatterns = map[gate.FindingType][2]string{
	gate.TestRegression: {"RG-001", "Test Regression (passed before, fails now)"},
	gate.Unverified:     {"RG-002", "Unverified Change (evidence that cannot be read)"},
}

// limitExceededID is AIWG's Iteration Limit Exceeded: no finding stands
// for it, the loop records it when it ends.
const limitExceededID = "LP-020"

// recordLimitExceeded records LP-020 in detected_patterns for a loop that
// ends at its iteration limit, iteration n, without the completion check
// passing (a loop whose check passed completed instead, whatever its
// iteration). An iteration records it once. It has no finding id: it is a
// fact of the loop, not a reading of a change a person could dispute.
func recordLimitExceeded(st *State, n int, now time.Time) {
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
	st.DetectedPatterns = append(st.DetectedPatterns, Pattern{PatternID: limitExceededID, PatternName: aiwgPatterns[limitExceededID],
		Iteration: n, Timestamp: now, Severity: gate.SeverityHigh.String()})
}

// limitExceeded returns the LP-020 entry of the loop's current stop: nil
// unless the loop is stopped at the iteration it was recorded for (an
// extended and resumed loop is no longer stopped at its old limit).
func limitExceeded(st *State) *Pattern {
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
func limitLine(p *Pattern) string {
	return fmt.Sprintf("%s %s (iteration %d): the iteration limit was reached without the completion check passing", p.PatternID, p.PatternName, p.Iteration)
}

// PatternOf is the detected_patterns id and name of a finding: the AIWG
// catalogue entry for what the finding's rule found, else ralph-gate's own.
func PatternOf(f gate.Finding) (id, name string) {
	if f.Rule == "unwitnessed-change" {
		return "RG-003", "Unwitnessed Change (no new test fails without it)"
	}
	if f.Rule == "named-test-excluded" || f.Rule == "named-file-untouched" {
		return "LP-021", aiwgPatterns["LP-021"]
	}
	if f.Rule == "mutant-survived" {
		return "RG-004", "Surviving Mutant (a changed line no test pins)"
	}
	if own, ok := ownPatterns[f.Type]; ok {
		return own[0], own[1]
	}
	id = aiwgPatternID(f)
	return id, aiwgPatterns[id]
}

func aiwgPatternID(f gate.Finding) string {
	r := f.Rule
	if f.Type == gate.FeatureRemoval && (r == "placeholder-added" || r == "todo-proliferation") {
		return "LP-019"
	}
	if f.Type == gate.ErrorSuppression && r == "error-to-null" {
		return "LP-018"
	}
	if f.Type == gate.ValidationBypass && r == "special-cases-added" {
		return "LP-017"
	}
	// A mock answering what a kept check expects, or a test mocking the
	// code it checks: Mock Over-Usage, not the trivialized, deleted or
	// rewritten assertions the rest of the type maps to.
	if f.Type == gate.AssertionWeakening && (r == "mocked-to-expected" || r == "mock-of-subject") {
		return "LP-014"
	}
	switch f.Type {
	case gate.TestDeletion:
		if strings.Contains(r, "comment") {
			return "LP-004"
		}
		return "LP-001"
	case gate.TestSkipping:
		if r == "tests-skipped" || r == "runner-filter" || r == "suite-runner-deleted" {
			return "LP-002"
		}
		return "LP-003"
	case gate.AssertionWeakening:
		switch {
		case r == "assertion-trivialized" || r == "assertion-replaced-weaker" || r == "assertion-inverted":
			return "LP-012"
		case r == "expected-rewritten" || r == "test-data-rewritten" || r == "tamper-check" || r == "tolerance-widened":
			return "LP-024"
		}
		return "LP-013"
	case gate.ErrorSuppression:
		return "LP-016"
	case gate.ValidationBypass:
		if r == "special-cased-literal" {
			return "LP-015"
		}
		return "LP-006"
	case gate.FeatureRemoval:
		if strings.Contains(r, "comment") {
			return "LP-005"
		}
		return "LP-007"
	case gate.CoverageRegression:
		if strings.HasPrefix(r, "branch-coverage-dropped") {
			return "LP-011"
		}
		if f.Severity >= gate.SeverityCritical {
			return "LP-009"
		}
		return "LP-010"
	}
	return "LP-022"
}
