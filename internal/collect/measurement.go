package collect

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/ralph-gate/ralph-gate/collectors"
	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// Measurement is what measuring one commit gives: the merged reports of its
// collectors, the metrics derived from them and from the commit's tree, and
// how they were obtained.
type Measurement struct {
	// Commit and Tree are the measured commit and its tree (hex); empty when
	// Run measured a directory that is not a commit (an overlaid worktree).
	Commit string `json:"commit,omitempty"`
	Tree   string `json:"tree,omitempty"`
	// Result is every report of every collector, merged (collectors.Merge):
	// test ids and outcomes, per-file coverage, diagnostics. It survives the
	// cache (see MarshalJSON).
	Result *collectors.Result `json:"-"`
	// Metrics are the seeds' baseline metrics; a nil field was not measured.
	Metrics gate.Metrics `json:"metrics"`
	// Tools maps each tool the collectors invoke to its version (ToolVersions).
	Tools map[string]string `json:"tools,omitempty"`
	// Collectors lists the collectors run, in order.
	Collectors []CollectorRun `json:"collectors,omitempty"`
	// Duration is the wall time of the whole measurement.
	Duration time.Duration `json:"duration_ns"`
}

// CollectorRun records one collector's run.
type CollectorRun struct {
	Name string `json:"name"`
	// ExitCode is the command's exit status; non-zero is normal for a test
	// run with failing tests or a linter with findings.
	ExitCode int           `json:"exit_code"`
	Duration time.Duration `json:"duration_ns"`
	// Reports names the report files read (relative to the checkout or to
	// {out}), or "<name> stdout".
	Reports []string `json:"reports,omitempty"`
}

// deriveMetrics fills the metrics that come from the reports: test counts
// (errored tests count as failed), coverage, type-check and lint counts.
// Metrics no report measured stay nil.
func deriveMetrics(m *gate.Metrics, r *collectors.Result) {
	if c, ok := r.TestCounts(); ok {
		total := c.Total
		m.TestCount = &total
		m.Tests = &gate.TestStats{Total: c.Total, Passed: c.Passed, Failed: c.Failed + c.Errored, Skipped: c.Skipped}
		ids := &gate.TestIDs{Failed: []string{}, Skipped: []string{}, Passed: []string{}}
		for t := range r.Tests.All() {
			switch t.Outcome {
			case collectors.Passed:
				ids.Passed = append(ids.Passed, t.ID)
			case collectors.Skipped:
				ids.Skipped = append(ids.Skipped, t.ID)
			default:
				ids.Failed = append(ids.Failed, t.ID)
			}
		}
		for _, l := range [][]string{ids.Failed, ids.Skipped, ids.Passed} {
			sort.Strings(l)
		}
		m.TestIDs = ids
	}
	if r != nil && r.Coverage != nil {
		if pct, ok := r.Coverage.Percent(); ok {
			m.CoveragePercentage = &pct
			m.CoverageUnit = r.Coverage.Unit()
		}
		if pct, ok := r.Coverage.BranchPercent(); ok {
			m.BranchCoveragePercentage = &pct
		}
		for _, p := range r.Coverage.Paths() {
			if pct, ok := r.Coverage.Files[p].Percent(); ok {
				if m.FileCoverage == nil {
					m.FileCoverage = map[string]float64{}
				}
				m.FileCoverage[p] = float64(int64(pct*100+0.5)) / 100
			}
		}
	}
	if r != nil && r.TypeCheck != nil {
		n := r.TypeCheck.Errors
		m.TypescriptErrors = &n
	}
	if r != nil && r.Lint != nil {
		e, w := r.Lint.Errors, r.Lint.Warnings
		m.LintErrors, m.LintWarnings = &e, &w
	}
}

// measurementJSON is Measurement's stored form: the fields, plus the Result,
// which has no JSON form of its own.
type measurementJSON struct {
	measurementFields
	Result *resultJSON `json:"result,omitempty"`
}

type measurementFields Measurement

// resultJSON stores a collectors.Result. Tests are listed; Go coverage is
// kept as a cover profile, line coverage and LCOV's branches as an LCOV
// tracefile, and Cobertura's condition counts as a Cobertura document: the
// formats the collectors package reads back exactly.
type resultJSON struct {
	Sources       []string                  `json:"sources,omitempty"`
	Tests         *[]testJSON               `json:"tests,omitempty"`
	Coverage      *coverageJSON             `json:"coverage,omitempty"`
	TypeCheck     *collectors.Diagnostics   `json:"type_check,omitempty"`
	Lint          *collectors.Diagnostics   `json:"lint,omitempty"`
	BuildFailures []collectors.BuildFailure `json:"build_failures,omitempty"`
	// Integrity keeps the collectors' cross-checks, so a cached result says
	// what was wrong with its evidence as the first run did.
	Integrity []collectors.IntegrityProblem `json:"integrity,omitempty"`
}

type testJSON struct {
	ID      string `json:"id"`
	Suite   string `json:"suite,omitempty"`
	Name    string `json:"name,omitempty"`
	File    string `json:"file,omitempty"`
	Outcome string `json:"outcome"`
	Flaky   bool   `json:"flaky,omitempty"`
	Runs    int    `json:"runs,omitempty"`
	Message string `json:"message,omitempty"`
}

type coverageJSON struct {
	Mode         string   `json:"mode,omitempty"`
	Stated       *float64 `json:"stated,omitempty"`
	StatedBranch *float64 `json:"stated_branch,omitempty"`
	Profile      string   `json:"coverprofile,omitempty"`
	LCOV         string   `json:"lcov,omitempty"`
	// Cobertura holds the lines with condition coverage, with no hits of
	// their own (the LCOV part has them).
	Cobertura string `json:"cobertura,omitempty"`
}

// MarshalJSON writes the measurement with its Result.
func (m *Measurement) MarshalJSON() ([]byte, error) {
	return json.Marshal(measurementJSON{measurementFields: measurementFields(*m), Result: encodeResult(m.Result)})
}

// UnmarshalJSON reads what MarshalJSON wrote, rebuilding the Result.
func (m *Measurement) UnmarshalJSON(b []byte) error {
	var j measurementJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	r, err := decodeResult(j.Result)
	if err != nil {
		return err
	}
	*m = Measurement(j.measurementFields)
	m.Result = r
	return nil
}

func encodeResult(r *collectors.Result) *resultJSON {
	if r == nil {
		return nil
	}
	j := &resultJSON{Sources: r.Sources, TypeCheck: r.TypeCheck, Lint: r.Lint, BuildFailures: r.BuildFailures, Integrity: r.Integrity}
	if r.Tests != nil {
		ts := make([]testJSON, 0, r.Tests.Len())
		for t := range r.Tests.All() {
			ts = append(ts, testJSON{ID: t.ID, Suite: t.Suite, Name: t.Name, File: t.File,
				Outcome: t.Outcome.String(), Flaky: t.Flaky, Runs: t.Runs, Message: t.Message})
		}
		j.Tests = &ts
	}
	if c := r.Coverage; c != nil {
		cj := &coverageJSON{Mode: c.Mode, Stated: c.Stated, StatedBranch: c.StatedBranch}
		var profile, lcov, cob strings.Builder
		for _, p := range c.Paths() {
			f := c.Files[p]
			if blocks := f.Blocks(); len(blocks) > 0 {
				for _, b := range blocks {
					fmt.Fprintf(&profile, "%s:%d.%d,%d.%d %d %d\n", p, b.StartLine, b.StartCol, b.EndLine, b.EndCol, b.NumStmt, b.Count)
				}
				continue
			}
			fmt.Fprintf(&lcov, "SF:%s\n", p)
			for _, h := range f.LineHits() {
				fmt.Fprintf(&lcov, "DA:%d,%d\n", h.Line, h.Hits)
			}
			for _, b := range f.BranchHits() {
				fmt.Fprintf(&lcov, "BRDA:%d,%s,%s,%d\n", b.Line, b.Block, b.Branch, b.Taken)
			}
			lcov.WriteString("end_of_record\n")
			if conds := f.Conditions(); len(conds) > 0 {
				cob.WriteString(`<class filename="`)
				_ = xml.EscapeText(&cob, []byte(p))
				cob.WriteString(`"><lines>`)
				for _, c := range conds {
					fmt.Fprintf(&cob, `<line number="%d" hits="0" condition-coverage="%d%% (%d/%d)"/>`, c.Line, 100*c.Covered/c.Valid, c.Covered, c.Valid)
				}
				cob.WriteString("</lines></class>")
			}
		}
		if cob.Len() > 0 {
			cj.Cobertura = "<coverage><packages><package><classes>" + cob.String() + "</classes></package></packages></coverage>"
		}
		if profile.Len() > 0 {
			mode := c.Mode
			if mode == "" {
				mode = "set"
			}
			cj.Profile = "mode: " + mode + "\n" + profile.String()
		}
		cj.LCOV = lcov.String()
		j.Coverage = cj
	}
	return j
}

var outcomes = map[string]collectors.Outcome{
	collectors.Passed.String():  collectors.Passed,
	collectors.Failed.String():  collectors.Failed,
	collectors.Skipped.String(): collectors.Skipped,
	collectors.Errored.String(): collectors.Errored,
}

func decodeResult(j *resultJSON) (*collectors.Result, error) {
	if j == nil {
		return nil, nil
	}
	r := &collectors.Result{Sources: j.Sources, TypeCheck: j.TypeCheck, Lint: j.Lint, BuildFailures: j.BuildFailures, Integrity: j.Integrity}
	if j.Tests != nil {
		r.Tests = &collectors.Tests{}
		for _, t := range *j.Tests {
			o, ok := outcomes[t.Outcome]
			if !ok {
				return nil, fmt.Errorf("test %q: unknown outcome %q", t.ID, t.Outcome)
			}
			if !r.Tests.Add(collectors.Test{ID: t.ID, Suite: t.Suite, Name: t.Name, File: t.File,
				Outcome: o, Flaky: t.Flaky, Runs: t.Runs, Message: t.Message}) {
				return nil, fmt.Errorf("test %q: not stored", t.ID)
			}
		}
	}
	if cj := j.Coverage; cj != nil {
		parts := []*collectors.Result{}
		for _, src := range []struct {
			format, text string
		}{{collectors.FormatCoverProfile, cj.Profile}, {collectors.FormatLCOV, cj.LCOV}, {collectors.FormatCobertura, cj.Cobertura}} {
			if src.text == "" {
				continue
			}
			p, err := collectors.New(src.format)
			if err != nil {
				return nil, err
			}
			res, err := p.Parse("cached coverage", strings.NewReader(src.text))
			if err != nil {
				return nil, err
			}
			parts = append(parts, res)
		}
		cov := &collectors.Coverage{Files: map[string]*collectors.FileCoverage{}}
		if merged := collectors.Merge(parts...); merged.Coverage != nil {
			cov = merged.Coverage
		}
		cov.Mode, cov.Stated, cov.StatedBranch = cj.Mode, cj.Stated, cj.StatedBranch
		r.Coverage = cov
	}
	return r, nil
}

// WithResults returns a copy of m whose result also holds rs (results of
// other runs carried over, see collectors.Merge), with the metrics derived
// again; the tree statistics are kept.
func (m *Measurement) WithResults(rs ...*collectors.Result) *Measurement {
	out := *m
	out.Result = collectors.Merge(append([]*collectors.Result{m.Result}, rs...)...)
	out.Metrics = gate.Metrics{FileCount: m.Metrics.FileCount, LinesOfCode: m.Metrics.LinesOfCode, Complexity: m.Metrics.Complexity}
	deriveMetrics(&out.Metrics, out.Result)
	return &out
}
