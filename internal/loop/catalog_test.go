package loop

import (
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// TestPatternIDsNeverCollide: every finding is named either by the AIWG
// catalogue entry of the same category or by an RG- id of ralph-gate's own;
// an LP- id is never used for something AIWG's catalogue means otherwise.
func TestPatternIDsNeverCollide(t *testing.T) {
	category := map[gate.FindingType][]string{
		gate.TestDeletion:       {"LP-001", "LP-004"},
		gate.TestSkipping:       {"LP-002", "LP-003"},
		gate.AssertionWeakening: {"LP-012", "LP-013", "LP-014", "LP-024"},
		gate.ErrorSuppression:   {"LP-016", "LP-018"},
		gate.ValidationBypass:   {"LP-006", "LP-015", "LP-017"},
		gate.FeatureRemoval:     {"LP-005", "LP-007", "LP-019"},
		gate.CoverageRegression: {"LP-009", "LP-010", "LP-011"},
	}
	rules := []string{"", "test-deleted", "test-file-deleted", "assertion-commented-out", "skip-added", "tests-skipped",
		"assertion-removed", "assertion-trivialized", "expected-rewritten", "tamper-check", "empty-catch", "ts-ignore",
		"special-cased-literal", "export-removed", "placeholder-added", "todo-proliferation", "error-to-null", "special-cases-added", "coverage-dropped", "branch-coverage-dropped",
		"branch-coverage-dropped-covered-code-removed", "package-broken", "unreadable-file", "forged-test-results",
		"mocked-to-expected", "mock-of-subject"}
	types := append([]gate.FindingType{gate.TestRegression, gate.Unverified}, gate.TestDeletion, gate.TestSkipping,
		gate.AssertionWeakening, gate.ErrorSuppression, gate.ValidationBypass, gate.FeatureRemoval, gate.CoverageRegression)
	for _, ty := range types {
		for _, rule := range rules {
			for _, sev := range []gate.Severity{gate.SeverityMedium, gate.SeverityHigh, gate.SeverityCritical} {
				id, name := PatternOf(gate.Finding{Type: ty, Rule: rule, Severity: sev})
				switch {
				case strings.HasPrefix(id, "RG-"):
					if ty != gate.TestRegression && ty != gate.Unverified || name != ownPatterns[id] {
						t.Errorf("%s/%s: own id %s for a type AIWG catalogues", ty, rule, id)
					}
				case strings.HasPrefix(id, "LP-"):
					ok := false
					for _, want := range category[ty] {
						ok = ok || id == want
					}
					if !ok || name != aiwgPatterns[id] {
						t.Errorf("%s/%s: %s %q is not an AIWG pattern of that category", ty, rule, id, name)
					}
				default:
					t.Errorf("%s/%s: id %q", ty, rule, id)
				}
			}
		}
	}
	if id, name := PatternOf(gate.Finding{Type: gate.Unverified, Rule: "mutant-survived"}); id != "RG-004" || !strings.Contains(name, "Mutant") {
		t.Errorf("mutant-survived is %s %q, want RG-004, its own", id, name)
	}
	if id, name := PatternOf(gate.Finding{Type: gate.Unverified, Rule: "unwitnessed-change"}); id != "RG-003" || !strings.Contains(name, "Unwitnessed") {
		t.Errorf("unwitnessed-change is %s %q, want RG-003, its own", id, name)
	}
	for _, f := range []gate.Finding{
		{Type: gate.CoverageRegression, Rule: "branch-coverage-dropped", Severity: gate.SeverityMedium},
		{Type: gate.CoverageRegression, Rule: "branch-coverage-dropped", Severity: gate.SeverityHigh},
		{Type: gate.CoverageRegression, Rule: "branch-coverage-dropped-covered-code-removed", Severity: gate.SeverityLow},
	} {
		if id, name := PatternOf(f); id != "LP-011" || name != "Branch Coverage Regression" {
			t.Errorf("%s (%s) is %s %q, want LP-011 Branch Coverage Regression", f.Rule, f.Severity, id, name)
		}
	}
	if id, _ := PatternOf(gate.Finding{Type: gate.CoverageRegression, Rule: "coverage-dropped", Severity: gate.SeverityHigh}); id != "LP-010" {
		t.Errorf("line coverage-dropped is %s, want LP-010", id)
	}
	for _, tc := range []struct {
		f        gate.Finding
		id, name string
	}{
		{gate.Finding{Type: gate.FeatureRemoval, Rule: "placeholder-added", Severity: gate.SeverityMedium}, "LP-019", "TODO Comment Proliferation"},
		{gate.Finding{Type: gate.ErrorSuppression, Rule: "error-to-null", Severity: gate.SeverityMedium}, "LP-018", "Return Null Instead of Throw"},
		{gate.Finding{Type: gate.ValidationBypass, Rule: "special-cases-added", Severity: gate.SeverityMedium}, "LP-017", "Excessive Special Cases"},
		{gate.Finding{Type: gate.ValidationBypass, Rule: "special-cased-literal", Severity: gate.SeverityMedium}, "LP-015", "Hardcoded Test Bypass"},
	} {
		if id, name := PatternOf(tc.f); id != tc.id || name != tc.name {
			t.Errorf("%s: %s %q, want %s %q", tc.f.Rule, id, name, tc.id, tc.name)
		}
	}
	for _, f := range []gate.Finding{
		{Type: gate.AssertionWeakening, Rule: "mocked-to-expected", Severity: gate.SeverityHigh},
		{Type: gate.AssertionWeakening, Rule: "mock-of-subject", Severity: gate.SeverityMedium},
	} {
		if id, name := PatternOf(f); id != "LP-014" || name != "Mock Over-Usage" {
			t.Errorf("%s (%s) is %s %q, want LP-014 Mock Over-Usage", f.Rule, f.Severity, id, name)
		}
	}
	for _, r := range []string{"assertion-trivialized", "assertion-removed", "expected-rewritten"} {
		if id, _ := PatternOf(gate.Finding{Type: gate.AssertionWeakening, Rule: r, Severity: gate.SeverityHigh}); id == "LP-014" {
			t.Errorf("%s is LP-014; the mock rules alone are", r)
		}
	}
	if id, _ := PatternOf(gate.Finding{Type: gate.TestRegression}); id == "LP-008" {
		t.Error("test_regression is LP-008, AIWG's Feature Flag Disabling")
	}
}
