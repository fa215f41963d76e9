package gate

// Schema is the JSON report's schema name.
const Schema = "ralph-gate/report/v1"

// Verdict is the gate's decision.
type Verdict string

// Verdicts.
const (
	VerdictPass  Verdict = "pass"
	VerdictWarn  Verdict = "warn"
	VerdictBlock Verdict = "block"
)

// Tool names the program that wrote a report.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Commit is one commit of the analyzed range with the number of findings it
// introduced.
type Commit struct {
	SHA      string `json:"sha"`
	Subject  string `json:"subject"`
	Findings int    `json:"findings"`
}

// Note is something the user should know that is not a finding: a skipped binary
// or oversized file, a file that did not parse, a collector that was not installed.
type Note struct {
	File    string `json:"file,omitempty"`
	Message string `json:"message"`
}

// Report is the whole result of a run, rendered by every format.
type Report struct {
	Schema   string         `json:"schema"`
	Tool     Tool           `json:"tool"`
	Base     string         `json:"base"`
	Head     string         `json:"head"`
	Commits  []Commit       `json:"commits"`
	Findings []Finding      `json:"findings"`
	Metrics  *MetricsPair   `json:"metrics,omitempty"`
	Verdict  Verdict        `json:"verdict"`
	FailOn   Severity       `json:"fail_on"`
	Notes    []Note         `json:"notes,omitempty"`
	Counts   map[string]int `json:"counts,omitempty"`
	// TamperCheck says whether compare's tamper check ran (BASE's versions of
	// the edited tests against HEAD's code) and, when it did not, why; nil
	// for analyze, which runs nothing.
	TamperCheck *TamperCheck `json:"tamper_check,omitempty"`
	// Witness says which of the tests the range added or edited fail on
	// BASE's production code (the fail-to-pass witness); nil for analyze.
	Witness *Witness `json:"witness,omitempty"`
	// Mutation is the diff-based mutation of the range's changed lines;
	// nil when it was not asked for (--mutation, mutation.enabled).
	Mutation *Mutation `json:"mutation,omitempty"`
	// ChangedLineCoverage is how much of what the range added or changed the
	// tests at HEAD ran; nil when HEAD measured no coverage (and for analyze).
	ChangedLineCoverage *ChangedLines `json:"changed_line_coverage,omitempty"`
}

// ChangedLines is changed-line coverage (diff-cover's measure): of the
// executable lines HEAD added or changed in BASE..HEAD, those its tests ran.
//
//	{"percentage": 83.33, "covered": 10, "total": 12, "unit": "statement", "min": 80,
//	 "files": [{"file": "calc/div.go", "covered": 4, "total": 6, "percentage": 66.67, "uncovered_lines": [12, 13]}]}
type ChangedLines struct {
	// Percentage is Covered over Total; nil when the change has no
	// executable line (only comments, tests or files without coverage).
	Percentage *float64 `json:"percentage"`
	Covered    int      `json:"covered"`
	Total      int      `json:"total"`
	// Unit is what a line's coverage comes from: "statement" (Go cover
	// profiles: a line a statement block spans), "line" (LCOV, Cobertura).
	Unit string `json:"unit"`
	// Min is the configured coverage.changed_lines_min; nil when none.
	Min *float64 `json:"min,omitempty"`
	// Files are the changed files with executable changed lines, by path.
	Files []ChangedFileCoverage `json:"files"`
	// Unmeasured are changed source files that the coverage report does not
	// list, though it lists files of the same kind: their lines are not
	// counted either way.
	Unmeasured []string `json:"unmeasured,omitempty"`
}

// ChangedFileCoverage is one file's changed-line coverage.
type ChangedFileCoverage struct {
	File       string  `json:"file"`
	Covered    int     `json:"covered"`
	Total      int     `json:"total"`
	Percentage float64 `json:"percentage"`
	// Uncovered lists the changed executable lines no test ran, at HEAD.
	Uncovered []int `json:"uncovered_lines"`
}

// TamperCheck is the tamper check's status in a report.
type TamperCheck struct {
	// Ran is true when BASE's versions of the edited test files ran against
	// HEAD's code.
	Ran bool `json:"ran"`
	// Reason says why it did not run (nothing edited, switched off, no
	// collector for the edited files, the run failed), or what it could not
	// cover when it ran.
	Reason string `json:"reason,omitempty"`
	// Files are the edited or deleted test files whose BASE versions ran.
	Files []string `json:"files,omitempty"`
	// Collectors are the collectors that ran them.
	Collectors []string `json:"collectors,omitempty"`
}

// Witness is the fail-to-pass witness of a compare: HEAD's versions of the
// tests the range added or edited, run against BASE's production code. A
// test that fails there and passes at HEAD is witnessed: it pins the
// change.
//
//	{"ran": true, "files": ["calc/mul_test.go"], "collectors": ["go"],
//	 "tests": [{"test": "example.com/calc.TestMulNegative", "file": "calc/mul_test.go",
//	            "witness": "witnessed", "detail": "mul_test.go:12: Mul(-2, 3) = 6, want -6"}]}
type Witness struct {
	// Ran is true when HEAD's tests ran against BASE's code.
	Ran bool `json:"ran"`
	// Reason says why it did not run (no production change, no new or
	// edited test, switched off, the run failed), or what it left out.
	Reason string `json:"reason,omitempty"`
	// Files are the test files (and test support) whose HEAD versions ran.
	Files []string `json:"files,omitempty"`
	// Collectors are the collectors that ran them.
	Collectors []string `json:"collectors,omitempty"`
	// Tests are the added or edited tests, by id, each with its outcome.
	Tests []WitnessTest `json:"tests,omitempty"`
}

// The outcomes of a test under the witness (WitnessTest.Witness).
const (
	// Witnessed: fails (or does not build) on BASE's code, passes on HEAD's.
	Witnessed = "witnessed"
	// NotWitnessing: passes on BASE's code as well: it does not exercise
	// the change.
	NotWitnessing = "not_witnessing"
	// WitnessBroken: fails on HEAD's own code.
	WitnessBroken = "broken"
	// WitnessUnmeasured: the run on BASE's code reported nothing for it.
	WitnessUnmeasured = "unmeasured"
)

// WitnessTest is one added or edited test under the witness.
type WitnessTest struct {
	Test string `json:"test"`
	File string `json:"file,omitempty"`
	// Witness is witnessed, not_witnessing, broken or unmeasured.
	Witness string `json:"witness"`
	// Detail is what BASE's code made of it: the failure's first lines, or
	// the build error.
	Detail string `json:"detail,omitempty"`
}

// Witnessed reports whether any test witnesses the change.
func (w *Witness) Witnessed() bool {
	for _, t := range w.Tests {
		if t.Witness == Witnessed {
			return true
		}
	}
	return false
}

// Mutation is the diff-based mutation of a compare: each production line
// the range added or changed, and that HEAD's tests cover, gets at most
// one small deliberate break (a mutant); the affected tests run with each
// in place. A mutant no test notices survives: nothing pins that line.
//
//	{"ran": true, "budget": "2m30s", "spent": "41s", "score": 80,
//	 "killed": 4, "survived": 1, "mutants": [{"file": "calc/clamp.go", "line": 12,
//	  "operator": "boundary", "original": "if v < lo {", "mutated": "if v <= lo {",
//	  "outcome": "survived"}]}
type Mutation struct {
	// Ran is true when at least one mutant ran.
	Ran bool `json:"ran"`
	// Reason says why it did not run, or what it left out (lines without
	// coverage, mutants the budget cut).
	Reason string `json:"reason,omitempty"`
	// Budget is the time the mutants could take, and Spent what they took.
	Budget string `json:"budget,omitempty"`
	Spent  string `json:"spent,omitempty"`
	// Lines counts the changed production lines considered; Uncovered
	// those no test ran at HEAD (left to changed-line coverage) and Arid
	// those no mutant is made for.
	Lines     int `json:"lines"`
	Uncovered int `json:"uncovered,omitempty"`
	// Killed, Survived, NotViable (did not build), Unmeasured (the run
	// gave no result) and NotRun (cut by the budget) count the mutants.
	Killed     int `json:"killed"`
	Survived   int `json:"survived"`
	NotViable  int `json:"not_viable,omitempty"`
	Unmeasured int `json:"unmeasured,omitempty"`
	NotRun     int `json:"not_run,omitempty"`
	// Score is the changed-line mutation score: killed over killed and
	// survived, in percent; nil when no mutant was judged.
	Score *float64 `json:"score,omitempty"`
	// Collectors are the collectors that ran the mutants.
	Collectors []string `json:"collectors,omitempty"`
	// Mutants are the mutants, by file and line.
	Mutants []MutantResult `json:"mutants,omitempty"`
}

// The outcomes of a mutant (MutantResult.Outcome).
const (
	// MutantKilled: a test that passes at HEAD fails with the mutant.
	MutantKilled = "killed"
	// MutantSurvived: every affected test still passes.
	MutantSurvived = "survived"
	// MutantNotViable: the mutant does not build; it tests nothing.
	MutantNotViable = "not_viable"
	// MutantUnmeasured: the run gave no test result.
	MutantUnmeasured = "unmeasured"
	// MutantNotRun: the budget ran out first.
	MutantNotRun = "not_run"
)

// MutantResult is one mutant and what the tests made of it.
type MutantResult struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Operator string `json:"operator"`
	Original string `json:"original"`
	Mutated  string `json:"mutated"`
	Outcome  string `json:"outcome"`
	// KilledBy is the first test that failed with the mutant; Detail says
	// more (the build error, why nothing was measured).
	KilledBy string `json:"killed_by,omitempty"`
	Detail   string `json:"detail,omitempty"`
}

// MetricsPair holds the measurements at both ends of a compare.
type MetricsPair struct {
	Base *Metrics `json:"base"`
	Head *Metrics `json:"head"`
}

// Metrics are the seeds' baseline_metrics. A nil field was not measured, which is
// different from zero.
type Metrics struct {
	TestCount          *int       `json:"test_count,omitempty"`
	CoveragePercentage *float64   `json:"coverage_percentage,omitempty"`
	TypescriptErrors   *int       `json:"typescript_errors,omitempty"`
	LintErrors         *int       `json:"lint_errors,omitempty"`
	LintWarnings       *int       `json:"lint_warnings,omitempty"`
	FileCount          *int       `json:"file_count,omitempty"`
	LinesOfCode        *int       `json:"lines_of_code,omitempty"`
	Complexity         *int       `json:"complexity,omitempty"`
	Tests              *TestStats `json:"tests,omitempty"`
	// CoverageUnit is what coverage_percentage counts: "statement" (Go
	// cover profiles), "line" (LCOV, Cobertura) or "statement+line".
	CoverageUnit string `json:"coverage_unit,omitempty"`
	// BranchCoveragePercentage is the share of branches (the ways out of a
	// decision) the tests took, from LCOV's BRDA records or Cobertura's
	// condition coverage; nil when no report has branch data (Go cover
	// profiles have none), which is not 0%.
	BranchCoveragePercentage *float64 `json:"branch_coverage_percentage,omitempty"`
	// TestIDs lists the measured test ids by outcome.
	TestIDs *TestIDs `json:"test_ids,omitempty"`
	// FileCoverage is each covered file's coverage percentage, keyed by the
	// path as the report writes it.
	FileCoverage map[string]float64 `json:"file_coverage,omitempty"`
}

// TestIDs are the measured test ids by outcome, sorted (errored tests are
// failed).
type TestIDs struct {
	Failed  []string `json:"failed"`
	Skipped []string `json:"skipped"`
	Passed  []string `json:"passed"`
}

// TestStats counts test outcomes.
type TestStats struct {
	Total   int `json:"total"`
	Passed  int `json:"passed"`
	Failed  int `json:"failed"`
	Skipped int `json:"skipped"`
}

// Blocking counts the findings that block under failOn (see BlocksAt).
func Blocking(findings []Finding, failOn FailOn) int {
	n := 0
	for _, f := range findings {
		if f.BlocksAt(failOn) {
			n++
		}
	}
	return n
}

// Decide computes the verdict from the net, unsuppressed findings: block when one
// reaches fail-on, warn when any remains, pass otherwise.
func Decide(findings []Finding, failOn FailOn) Verdict {
	v := VerdictPass
	for _, f := range findings {
		if f.BlocksAt(failOn) {
			return VerdictBlock
		}
		if !f.Net || f.Suppressed != "" {
			continue
		}
		v = VerdictWarn
	}
	return v
}
