package gate

import "strings"

// Rule is one detector of ralph-gate: the value a finding's Rule field names
// (by its ID), the type it raises, its default severity and the pattern the
// loop records it under. The catalogue (rules.go) holds every rule; a
// finding is built from its rule, never from a string, so a rule id is
// written once.
type Rule struct {
	// ID is what a finding's "rule" field says: stable across versions,
	// since waivers, dashboards and loop state key on it. For a Family it
	// is the prefix of the ids its findings carry.
	ID string
	// Type is the finding type the rule raises. A detector whose evidence
	// says more may raise it with another (the tamper check of a test HEAD
	// no longer has is a test_deletion).
	Type FindingType
	// Severity is the rule's default severity: where the evidence is
	// stronger or weaker the detector raises it with another, and says why.
	Severity Severity
	// Pattern is the detected_patterns id the loop records for the rule's
	// findings: the entry of AIWG's laziness pattern catalogue (LP-0NN) that
	// means the same thing, or ralph-gate's own (RG-00N).
	Pattern string
	// PatternAtCritical is the pattern of a critical finding of the rule,
	// where it differs: a coverage drop big enough to be critical is AIWG's
	// Massive Coverage Drop (LP-009), a smaller one Significant (LP-010).
	PatternAtCritical string
	// Doc says in one line what the rule finds.
	Doc string
	// Family is true for a rule whose findings each carry ID followed by a
	// kind named where they are found: "suppression-" + "nolint". Kind
	// gives the rule of one kind.
	Family bool
}

// Kind returns the rule a family raises for one kind: ID followed by kind,
// and everything else the family's. A rule that is no family is returned
// as it is.
func (r Rule) Kind(kind string) Rule {
	if !r.Family {
		return r
	}
	r.ID += kind
	r.Family = false
	return r
}

// Name is the rule's id as a person reads it in a list of rules: a
// family's with "<kind>" in place of its kinds.
func (r Rule) Name() string {
	if r.Family {
		return r.ID + "<kind>"
	}
	return r.ID
}

// PatternFor returns the pattern id of a finding of the rule at severity
// sev.
func (r Rule) PatternFor(sev Severity) string {
	if r.PatternAtCritical != "" && sev >= SeverityCritical {
		return r.PatternAtCritical
	}
	return r.Pattern
}

// Rules returns every rule of the catalogue, in a stable order: by finding
// type (FindingTypes' order), then as the catalogue lists them.
func Rules() []Rule {
	return append([]Rule(nil), catalogue...)
}

// byID indexes the catalogue's rules that are no family.
var byID = func() map[string]Rule {
	m := make(map[string]Rule, len(catalogue))
	for _, r := range catalogue {
		if !r.Family {
			m[r.ID] = r
		}
	}
	return m
}()

// RuleByID returns the rule a finding's Rule field names: a catalogued rule,
// or the kind of a family ("suppression-nolint"). ok is false for an id
// the catalogue does not hold (an empty one, or one from an older version
// kept in loop state).
func RuleByID(id string) (Rule, bool) {
	if r, ok := byID[id]; ok {
		return r, true
	}
	for _, r := range catalogue {
		if r.Family && len(id) > len(r.ID) && strings.HasPrefix(id, r.ID) {
			return r.Kind(id[len(r.ID):]), true
		}
	}
	return Rule{}, false
}
