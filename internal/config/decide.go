package config

import (
	"slices"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// Decide gives a report its verdict under this configuration: it adds a
// finding for each expired waiver, sets the fail-on (the flag's when
// given, else fail_on's, else gate.DefaultFailOn), the verdict and the
// counts of net findings by severity, and returns the fail-on.
func (c *Config) Decide(rep *gate.Report, failOnFlag *gate.Severity) gate.FailOn {
	for _, f := range c.ExpiredWaivers() {
		if !slices.ContainsFunc(rep.Findings, func(g gate.Finding) bool { return g.ID == f.ID }) {
			rep.Findings = append(rep.Findings, f)
		}
	}
	failOn := gate.ResolveFailOn(failOnFlag, c.FailOn)
	rep.FailOn = gate.Severity(failOn)
	rep.Verdict = gate.Decide(rep.Findings, failOn)
	rep.Counts = map[string]int{}
	for _, f := range rep.Findings {
		if f.Net {
			rep.Counts[f.Severity.String()]++
		}
	}
	return failOn
}
