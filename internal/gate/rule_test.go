package gate

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

var (
	ruleID    = regexp.MustCompile(`^[a-z]+(-[a-z]+)*-?$`)
	patternID = regexp.MustCompile(`^(LP|RG)-\d{3}$`)
)

func TestCatalogueIsWellFormed(t *testing.T) {
	seen := map[string]bool{}
	last := -1
	for _, r := range Rules() {
		if seen[r.ID] {
			t.Errorf("%s: listed twice", r.ID)
		}
		seen[r.ID] = true
		if !ruleID.MatchString(r.ID) || strings.HasSuffix(r.ID, "-") != r.Family {
			t.Errorf("%q: want a kebab-case id, ending in '-' exactly when the rule is a family", r.ID)
		}
		i := slices.Index(FindingTypes, r.Type)
		if i < 0 {
			t.Errorf("%s: type %q is none of FindingTypes", r.ID, r.Type)
		}
		if i < last {
			t.Errorf("%s: a %s rule after a %s one: Rules is ordered by type", r.ID, r.Type, FindingTypes[last])
		}
		last = i
		if r.Severity < SeverityLow || r.Severity > SeverityCritical {
			t.Errorf("%s: default severity %s", r.ID, r.Severity)
		}
		if !patternID.MatchString(r.Pattern) || r.PatternAtCritical != "" && !patternID.MatchString(r.PatternAtCritical) {
			t.Errorf("%s: pattern %q / %q", r.ID, r.Pattern, r.PatternAtCritical)
		}
		if r.Doc == "" || !strings.HasSuffix(r.Doc, ".") || strings.Contains(r.Doc, "\n") {
			t.Errorf("%s: doc %q is not one sentence on one line", r.ID, r.Doc)
		}
	}
	if len(seen) < 100 {
		t.Errorf("the catalogue holds %d rules; every detector's rule belongs in it", len(seen))
	}
}

func TestRuleByID(t *testing.T) {
	for _, r := range Rules() {
		id := r.ID
		if r.Family {
			id += "some-kind"
		}
		got, ok := RuleByID(id)
		if !ok || got.ID != id || got.Type != r.Type || got.Family {
			t.Errorf("RuleByID(%q) = %+v, %v", id, got, ok)
		}
	}
	for _, id := range []string{"", "no-such-rule", RuleSuppression.ID} {
		if r, ok := RuleByID(id); ok {
			t.Errorf("RuleByID(%q) = %+v, want none", id, r)
		}
	}
	if got := RuleSuppression.Kind("nolint"); got.ID != "suppression-nolint" || got.Name() != "suppression-nolint" || RuleSuppression.Name() != "suppression-<kind>" {
		t.Errorf("RuleSuppression.Kind(nolint) = %+v", got)
	}
	if got := RuleTestDeleted.Kind("x"); got != RuleTestDeleted {
		t.Errorf("Kind of a rule that is no family changed it: %+v", got)
	}
}

func TestPatternFor(t *testing.T) {
	if got := RuleCoverageDropped.PatternFor(SeverityCritical); got != "LP-009" {
		t.Errorf("critical coverage drop: %s, want LP-009", got)
	}
	if got := RuleCoverageDropped.PatternFor(SeverityHigh); got != "LP-010" {
		t.Errorf("high coverage drop: %s, want LP-010", got)
	}
	if got := RuleBranchCoverageDropped.PatternFor(SeverityCritical); got != "LP-011" {
		t.Errorf("critical branch coverage drop: %s, want LP-011", got)
	}
}
