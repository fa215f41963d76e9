package gate

// ValidationPenalty is what each finding of a severity takes off the
// validation score; a critical finding makes it 0 (and an iteration void).
// One scoring model: the loop's validation dimension (loop.Score) and the
// Action's score per commit are both ValidationScore.
var ValidationPenalty = map[Severity]float64{
	SeverityHigh: 40, SeverityMedium: 15, SeverityLow: 5,
}

// ValidationScore is 100 minus the penalty of each distinct finding (by id;
// a finding without one counts each time), floored at 0, and 0 with void
// set when one is critical. Callers pass the findings that count: not the
// suppressed or approved ones.
func ValidationScore(fs []Finding) (score float64, void bool) {
	score = 100
	seen := map[string]bool{}
	for _, f := range fs {
		if f.ID != "" {
			if seen[f.ID] {
				continue
			}
			seen[f.ID] = true
		}
		if f.Severity == SeverityCritical {
			void = true
			continue
		}
		score -= ValidationPenalty[f.Severity]
	}
	if void || score < 0 {
		score = 0
	}
	return score, void
}

// ValidationFormula says what ValidationScore is, for reports that show it.
const ValidationFormula = "100 − 40 × high − 15 × medium − 5 × low, floored at 0; 0 with any critical"
