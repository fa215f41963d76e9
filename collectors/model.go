package collectors

import (
	"strings"
	"unicode/utf8"
)

// Result is what one or more report files say. A nil field was not measured
// by these reports, which is different from zero (see the package doc).
type Result struct {
	// Sources names the report files this result was read from.
	Sources []string
	// Tests holds test results, one per Test.ID; nil when no test report
	// was read.
	Tests *Tests
	// Coverage is per-file coverage; nil when no coverage report was read.
	Coverage *Coverage
	// TypeCheck counts type-checker diagnostics (tsc); nil when not measured.
	TypeCheck *Diagnostics
	// Lint counts linter diagnostics (sarif, checkstyle, eslint, golangci);
	// nil when not measured.
	Lint *Diagnostics
	// BuildFailures lists the packages that did not build (go test -json).
	// Each one also appears in Tests as a failed test (see GoTest), so that a
	// package that does not build never reads as "zero tests".
	BuildFailures []BuildFailure
	// Integrity lists what the cross-checks found wrong with the evidence
	// itself: forged or conflicting events, fewer tests run than declared,
	// report headers that disagree with their test cases.
	Integrity []IntegrityProblem
}

// IntegrityProblem is one thing wrong with the evidence itself.
type IntegrityProblem struct {
	// Package is the package, suite or report file the problem is in.
	Package string
	// Tests are the test ids concerned (may be empty).
	Tests []string
	// Problem is one sentence a person understands.
	Problem string
}

// Outcome is the result of one test. The zero value is not a valid outcome.
type Outcome uint8

// Outcomes, as the formats report them.
const (
	// Passed: the test ran and passed.
	Passed Outcome = iota + 1
	// Failed: the test ran and an assertion failed (JUnit <failure>, go test
	// fail), or it never finished.
	Failed
	// Skipped: the test was skipped, disabled or todo.
	Skipped
	// Errored: the test could not run or crashed outside its assertions
	// (JUnit <error>).
	Errored
)

var outcomeNames = [...]string{"", "passed", "failed", "skipped", "error"}

// String returns the outcome's name: passed, failed, skipped or error.
func (o Outcome) String() string {
	if int(o) < len(outcomeNames) && o != 0 {
		return outcomeNames[o]
	}
	return "unknown"
}

// MarshalText writes the outcome's name, so outcomes read well in JSON.
func (o Outcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// rank orders outcomes for merging: the worst outcome of an id wins, and a
// test that ran anywhere beats one that was skipped.
func (o Outcome) rank() int {
	switch o {
	case Errored:
		return 4
	case Failed:
		return 3
	case Passed:
		return 2
	case Skipped:
		return 1
	}
	return 0
}

// Test is the result of one test id.
type Test struct {
	// ID is stable across runs: "pkg/path.TestX/sub" for Go (and gotestsum's
	// JUnit), "classname.name" for JUnit, "suite > name" for JUnit test cases
	// without a classname.
	ID string
	// Suite is the package, class or suite part of the id, Name the rest.
	Suite string
	Name  string
	// File is the test's source file where the format says it (JUnit's file
	// attribute); empty otherwise.
	File string
	// Outcome is the worst outcome of all runs of this id.
	Outcome Outcome
	// Flaky is set when runs of this id both passed and failed (retries,
	// -count=N, or shards that disagree).
	Flaky bool
	// Runs counts how often the id was reported.
	Runs int
	// Message is the failure, error or skip message, at most MaxMessageBytes.
	Message string
}

// MaxMessageBytes bounds Test.Message and BuildFailure.Output: enough for an
// assertion's diff, small enough that a million tests stay cheap.
const MaxMessageBytes = 2048

// BuildFailure is a package that did not build.
type BuildFailure struct {
	// Package is the package whose tests could not run.
	Package string
	// ImportPath is the package that failed to build, as go test -json's
	// FailedBuild field says ("pkg [pkg.test]" for a test variant).
	ImportPath string
	// Output is the build's output (compiler errors), at most MaxMessageBytes.
	Output string
}

// TestCounts counts test outcomes, one per test id.
type TestCounts struct {
	Total, Passed, Failed, Skipped, Errored int
}

// TestCounts counts the outcomes of r.Tests; ok is false when r measured no
// tests (Tests is nil).
func (r *Result) TestCounts() (c TestCounts, ok bool) {
	if r == nil || r.Tests == nil {
		return c, false
	}
	return r.Tests.Counts(), true
}

func isFailure(o Outcome) bool { return o == Failed || o == Errored }

// Diagnostics counts the findings of a linter or type checker. Notes and
// infos are not counted (see each format).
type Diagnostics struct {
	Errors   int
	Warnings int
	// Rules counts by rule id (eslint rule, TS code, linter name); the empty
	// rule collects diagnostics without one.
	Rules map[string]RuleCount
}

// RuleCount counts the diagnostics of one rule.
type RuleCount struct {
	Errors, Warnings int
}

// level is a diagnostic's severity after each format's mapping.
type level uint8

const (
	levelIgnored level = iota
	levelWarning
	levelError
)

func (d *Diagnostics) add(rule string, l level) {
	if l == levelIgnored {
		return
	}
	if d.Rules == nil {
		d.Rules = make(map[string]RuleCount)
	}
	rc := d.Rules[rule]
	if l == levelError {
		d.Errors++
		rc.Errors++
	} else {
		d.Warnings++
		rc.Warnings++
	}
	d.Rules[rule] = rc
}

// truncate cuts s to at most n bytes on a UTF-8 boundary, marking the cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const mark = " …[truncated]"
	cut := n - len(mark)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strings.TrimRight(s[:cut], " \t\n") + mark
}

// messageBuf collects text up to MaxMessageBytes without holding more.
type messageBuf struct {
	b    strings.Builder
	over bool
}

func (m *messageBuf) write(s string) {
	if m.over {
		return
	}
	if room := MaxMessageBytes + 1 - m.b.Len(); len(s) > room {
		s, m.over = s[:room], true
	}
	m.b.WriteString(s)
}

func (m *messageBuf) String() string {
	return truncate(strings.TrimSpace(m.b.String()), MaxMessageBytes)
}
