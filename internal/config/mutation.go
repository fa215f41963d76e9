package config

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// Mutation configures the diff-based mutation of compare, record and run:
//
//	mutation:
//	  enabled: true        # compare and record mutate without --mutation; run mutates unless false
//	  budget: 10x          # a multiple of the affected tests' own run time, or a duration (5m)
//	  jobs: 2              # mutants run at once, each in its own worktree
//	  severity: medium     # of a mutant-survived finding
//	  large_change: 400    # changed production lines past which a survivor is low
//	  arid: ['^metrics\.'] # more lines no mutant is made for (regular expressions on the trimmed line)
type Mutation struct {
	Enabled     *bool          `yaml:"enabled"`
	Budget      string         `yaml:"budget"`
	Jobs        int            `yaml:"jobs"`
	Severity    *gate.Severity `yaml:"severity"`
	LargeChange int            `yaml:"large_change"`
	Arid        []string       `yaml:"arid"`
}

// DefaultMutationBudget is the budget when none is configured: ten times
// what the affected tests take to run once.
const DefaultMutationBudget = "10x"

// DefaultLargeChange is the number of changed production lines past which
// a surviving mutant is low: in a large change a reviewer reads the
// survivors as a list of places to look, not each as a defect.
const DefaultLargeChange = 400

// MutationOn reports whether mutation runs, given the command's default
// (run: on; compare, record and the hook: off) and its flags.
func (m Mutation) MutationOn(byDefault bool) bool {
	if m.Enabled != nil {
		return *m.Enabled
	}
	return byDefault
}

// BudgetFor is the time the mutants may take, given the affected tests'
// own run time: a duration as configured, or the configured multiple of
// testTime (at least a minute, so a suite that runs in a blink still
// gets a few mutants).
func (m Mutation) BudgetFor(testTime time.Duration) time.Duration {
	b := m.Budget
	if b == "" {
		b = DefaultMutationBudget
	}
	if x, ok := strings.CutSuffix(b, "x"); ok {
		f, _ := strconv.ParseFloat(x, 64)
		return max(time.Minute, time.Duration(f*float64(testTime)))
	}
	d, _ := time.ParseDuration(b)
	return d
}

// SurvivorSeverity is the severity of a mutant-survived finding for a
// change of changedLines production lines.
func (m Mutation) SurvivorSeverity(changedLines int) gate.Severity {
	large := m.LargeChange
	if large <= 0 {
		large = DefaultLargeChange
	}
	if changedLines > large {
		return gate.SeverityLow
	}
	if m.Severity != nil {
		return *m.Severity
	}
	return gate.SeverityMedium
}

// AridPatterns are the configured arid patterns, compiled (validate has
// checked them).
func (m Mutation) AridPatterns() []*regexp.Regexp {
	var out []*regexp.Regexp
	for _, a := range m.Arid {
		if re, err := regexp.Compile(a); err == nil {
			out = append(out, re)
		}
	}
	return out
}

func (m Mutation) validate() error {
	if b := m.Budget; b != "" {
		if x, ok := strings.CutSuffix(b, "x"); ok {
			if f, err := strconv.ParseFloat(x, 64); err != nil || f <= 0 {
				return fmt.Errorf("mutation: budget: %q is not a positive multiple (10x) or a duration (5m)", b)
			}
		} else if d, err := time.ParseDuration(b); err != nil || d <= 0 {
			return fmt.Errorf("mutation: budget: %q is not a positive multiple (10x) or a duration (5m)", b)
		}
	}
	if m.Jobs < 0 {
		return fmt.Errorf("mutation: jobs cannot be negative (%d)", m.Jobs)
	}
	if m.LargeChange < 0 {
		return fmt.Errorf("mutation: large_change cannot be negative (%d)", m.LargeChange)
	}
	for _, a := range m.Arid {
		if _, err := regexp.Compile(a); err != nil {
			return fmt.Errorf("mutation: arid: %q is not a regular expression: %v", a, err)
		}
	}
	return nil
}
