package gate

import "testing"

func TestValidationScore(t *testing.T) {
	f := func(id string, s Severity) Finding { return Finding{ID: id, Severity: s} }
	for _, c := range []struct {
		name  string
		fs    []Finding
		score float64
		void  bool
	}{
		{"none", nil, 100, false},
		{"one high, one medium, one low", []Finding{f("a", SeverityHigh), f("b", SeverityMedium), f("c", SeverityLow)}, 40, false},
		{"the same finding twice counts once", []Finding{f("a", SeverityHigh), f("a", SeverityHigh)}, 60, false},
		{"findings without ids count each", []Finding{f("", SeverityMedium), f("", SeverityMedium)}, 70, false},
		{"floored at 0", []Finding{f("a", SeverityHigh), f("b", SeverityHigh), f("c", SeverityHigh)}, 0, false},
		{"a critical one voids", []Finding{f("a", SeverityLow), f("b", SeverityCritical)}, 0, true},
	} {
		score, void := ValidationScore(c.fs)
		if score != c.score || void != c.void {
			t.Errorf("%s: %v, %v; want %v, %v", c.name, score, void, c.score, c.void)
		}
	}
}
