// Package config reads the gate's configuration, .ralph-gate.yml.
//
// The configuration is read from BASE's tree, never from HEAD or the working tree:
// those are what the agent controls, and a gate that reads its rules from the code
// under review can be switched off by that code. A change to the file inside the
// analyzed range is itself reported as validation_bypass.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"io"
	"path"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/runner"
)

// FileName is the configuration file's name at the repository root.
const FileName = ".ralph-gate.yml"

// DefaultIgnore lists the paths that are never analyzed unless ignore_defaults is
// false: vendored and generated trees, and Go's testdata folders (fixtures, not
// tests the toolchain runs).
var DefaultIgnore = []string{"vendor/**", "**/node_modules/**", "third_party/**", "**/testdata/**"}

// Config is the parsed configuration.
type Config struct {
	// FailOn is the default --fail-on; the flag wins when given.
	FailOn *gate.Severity `yaml:"fail_on"`
	// Severity overrides the default severity per finding type.
	Severity map[gate.FindingType]gate.Severity `yaml:"severity"`
	// Ignore lists path globs (with ** for any depth) that are not analyzed.
	Ignore []string `yaml:"ignore"`
	// IgnoreDefaults, when false, drops DefaultIgnore.
	IgnoreDefaults *bool `yaml:"ignore_defaults"`
	// Exceptions are sanctioned findings: reported, marked suppressed, never
	// blocking.
	Exceptions []Exception `yaml:"exceptions"`
	// Waivers let reviewed findings through until they expire (waiver.go).
	Waivers []Waiver `yaml:"waivers"`
	// Collectors replace the detected toolchains' commands for compare.
	Collectors []Collector `yaml:"collectors"`
	// Compare holds compare's tolerances and policies.
	Compare Compare `yaml:"compare"`
	// Coverage holds the coverage policies that are not tolerances on a drop.
	Coverage Coverage `yaml:"coverage"`
	// Mutation configures the diff-based mutation (mutation.go).
	Mutation Mutation `yaml:"mutation"`
	// Loop holds the loop commands' thresholds and weights (loop.go).
	Loop Loop `yaml:"loop"`
	// Hook configures the pre-push hook (hook.go).
	Hook Hook `yaml:"hook"`
	// Guard configures the agent hooks (guard.go).
	Guard Guard `yaml:"guard"`
	// Toolchain names the interpreters the detected collectors run.
	Toolchain Toolchain `yaml:"toolchain"`
	// Approve says whose approve label counts (the Action).
	Approve Approve `yaml:"approve"`
}

// Toolchain names the interpreters detection uses instead of the ones on
// PATH:
//
//	toolchain:
//	  python: .venv/bin/python   # relative to the repository's root, or absolute
type Toolchain struct {
	// Python is the interpreter (a virtualenv's bin/python) the detected
	// pytest and coverage collectors run; default python3 from PATH.
	Python string `yaml:"python"`
}

// Collector is one command that measures a checkout, as .ralph-gate.yml gives it:
//
//	collectors:
//	  - name: unit
//	    argv: [go, test, -json, -coverprofile=cover.out, ./...]
//	    timeout: 10m
//	    reports:
//	      - {format: gotest, stdout: true}
//	      - {format: coverprofile, path: cover.out}
type Collector struct {
	Name string `yaml:"name"`
	// Argv is run directly, without a shell, unless Shell is set, in which case
	// Argv must be one string run by `sh -c`.
	Argv    []string          `yaml:"argv"`
	Shell   bool              `yaml:"shell"`
	Env     map[string]string `yaml:"env"`
	Timeout string            `yaml:"timeout"`
	// Reports are the files (globs, relative to the checkout) or the standard
	// output the command produces, with their collectors format names.
	Reports []ReportSpec `yaml:"reports"`
	// Tests marks the collector whose test results the tamper check reruns.
	Tests bool `yaml:"tests"`
	// Runner names the test runner the command drives (go, pytest, vitest,
	// jest, cargo, maven, gradle; see internal/runner), which decides how
	// the tamper check and affected-only measuring narrow it. Detection
	// sets it; when a configured collector leaves it out, it is recognized
	// from the command.
	Runner string `yaml:"runner"`
}

// ReportSpec is one report a collector writes.
type ReportSpec struct {
	Format string `yaml:"format"`
	Path   string `yaml:"path"`
	Stdout bool   `yaml:"stdout"`
}

// Compare configures what compare treats as a regression.
type Compare struct {
	// CoverageTolerance is the overall coverage drop, in percentage points, that
	// is tolerated (default 0.5).
	CoverageTolerance *float64 `yaml:"coverage_tolerance"`
	// ChangedFileTolerance is the tolerated drop on a changed file (default 5).
	ChangedFileTolerance *float64 `yaml:"changed_file_tolerance"`
	// BranchCoverageTolerance is the tolerated drop of branch coverage, in
	// percentage points (default 2); a drop of more than 10 points is high.
	BranchCoverageTolerance *float64 `yaml:"branch_coverage_tolerance"`
	// BlockOnTypeErrors and BlockOnLintErrors make increases in type-check and
	// lint errors findings (validation_bypass, high) instead of metrics only.
	BlockOnTypeErrors bool `yaml:"block_on_type_errors"`
	BlockOnLintErrors bool `yaml:"block_on_lint_errors"`
	// TamperCheck runs BASE's versions of edited tests against HEAD's code
	// (default on whenever collectors run).
	TamperCheck *bool `yaml:"tamper_check"`
	// CICommands measures the test steps the project's GitHub workflows run
	// on pull requests: when the CI program changed, BASE's step and
	// HEAD's step are run on HEAD's code and their exits and tests
	// compared. "auto" (the default) or "off".
	CICommands string `yaml:"ci_commands"`
	// CISteps picks the steps measured: a workflow's path
	// (.github/workflows/ci.yml) or a workflow and a job
	// (.github/workflows/ci.yml:test). Empty: every test step.
	CISteps []string `yaml:"ci_steps"`
	// CITimeout bounds each run of a CI step (default 30m).
	CITimeout string `yaml:"ci_timeout"`
	// Witness runs HEAD's versions of the tests the range added or edited
	// against BASE's production code, when the range changes production
	// code: a test that fails there witnesses the change. "auto" (the
	// default) or "off".
	Witness string `yaml:"witness"`
	// WitnessSeverity is the severity of an unwitnessed-change finding (no
	// added or edited test fails on BASE's code): medium by default; a loop
	// that must pin every fix with a test sets high.
	WitnessSeverity *gate.Severity `yaml:"witness_severity"`
}

// WitnessOn reports whether compare runs the fail-to-pass witness.
func (c Compare) WitnessOn() bool { return c.Witness != "off" }

// CICommandsOn reports whether compare measures the CI's test steps.
func (c Compare) CICommandsOn() bool { return c.CICommands != "off" }

// PicksCIStep reports whether a step of workflow wf, job job, is measured
// (CISteps).
func (c Compare) PicksCIStep(wf, job string) bool {
	if len(c.CISteps) == 0 {
		return true
	}
	for _, s := range c.CISteps {
		if s == wf || s == wf+":"+job {
			return true
		}
	}
	return false
}

// Coverage configures changed-line coverage:
//
//	coverage:
//	  changed_lines_min: 80   # percent of the lines a change adds or edits that tests must run
type Coverage struct {
	// ChangedLinesMin, when set, makes changed-line coverage below it a
	// coverage_regression (high), and a HEAD without coverage an unverified
	// finding.
	ChangedLinesMin *float64 `yaml:"changed_lines_min"`
}

// Exception sanctions findings that match all of its non-empty fields.
type Exception struct {
	Type   gate.FindingType `yaml:"type"`
	Path   string           `yaml:"path"`
	Test   string           `yaml:"test"`
	Reason string           `yaml:"reason"`
	Line   int              `yaml:"-"`
}

// Default is the configuration used when the file is absent.
func Default() *Config { return &Config{} }

var yamlLine = lazyre.New(`^yaml: (?:unmarshal errors:\n\s*)?line (\d+): (.*)$`)

// Parse reads a configuration. name is how errors refer to the file (for example
// ".ralph-gate.yml at BASE 1a2b3c4"); every error names it and, where known, the
// line.
func Parse(name string, data []byte) (*Config, error) {
	c := &Config{}
	if len(bytes.TrimSpace(data)) == 0 {
		return c, nil
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var doc yaml.Node
	docErr := yaml.Unmarshal(data, &doc)
	if err := dec.Decode(c); err != nil && !errors.Is(err, io.EOF) {
		msg := yamlMessage(err)
		if !strings.HasPrefix(msg, "line ") && docErr == nil {
			// Errors from a value's own unmarshaler carry no position: find the
			// value they quote.
			if m := quotedValue.FindStringSubmatch(msg); m != nil {
				if line := findScalar(&doc, m[1]); line > 0 {
					msg = "line " + strconv.Itoa(line) + ": " + msg
				}
			}
		}
		return nil, fmt.Errorf("config %s: %s", name, msg)
	}
	// Line numbers for exceptions, so their errors can point at them.
	if docErr == nil {
		annotateExceptionLines(&doc, c)
	}
	if err := c.validate(); err != nil {
		return nil, fmt.Errorf("config %s: %w", name, err)
	}
	if err := c.Loop.validate(); err != nil {
		return nil, fmt.Errorf("config %s: loop: %w", name, err)
	}
	return c, nil
}

var quotedValue = lazyre.New(`"([^"]*)"`)

func findScalar(n *yaml.Node, value string) int {
	if n.Kind == yaml.ScalarNode && n.Value == value {
		return n.Line
	}
	for _, c := range n.Content {
		if l := findScalar(c, value); l > 0 {
			return l
		}
	}
	return 0
}

func yamlMessage(err error) string {
	msg := err.Error()
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		detail := m[2]
		detail = strings.Replace(detail, " in type config.Config", "", 1)
		detail = strings.Replace(detail, " in type config.Exception", "", 1)
		detail = strings.Replace(detail, " in type config.Hook", "", 1)
		if i := strings.Index(detail, "\n"); i >= 0 {
			detail = detail[:i]
		}
		return "line " + m[1] + ": " + detail
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	if i := strings.Index(msg, "\n"); i >= 0 {
		msg = msg[:i]
	}
	return msg
}

func annotateExceptionLines(doc *yaml.Node, c *Config) {
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return
	}
	m := doc.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == "exceptions" && m.Content[i+1].Kind == yaml.SequenceNode {
			for j, item := range m.Content[i+1].Content {
				if j < len(c.Exceptions) {
					c.Exceptions[j].Line = item.Line
				}
			}
		}
		if m.Content[i].Value == "waivers" && m.Content[i+1].Kind == yaml.SequenceNode {
			for j, item := range m.Content[i+1].Content {
				if j < len(c.Waivers) {
					c.Waivers[j].Line = item.Line
				}
			}
		}
	}
}

func knownType(t gate.FindingType) bool {
	for _, k := range gate.FindingTypes {
		if k == t {
			return true
		}
	}
	return false
}

func (c *Config) validate() error {
	for t := range c.Severity {
		if !knownType(t) {
			return fmt.Errorf("severity: unknown finding type %q", t)
		}
	}
	for _, g := range c.Ignore {
		if _, err := path.Match(strings.ReplaceAll(g, "**", "*"), ""); err != nil {
			return fmt.Errorf("ignore: bad glob %q: %v", g, err)
		}
	}
	for i, col := range c.Collectors {
		where := "collectors[" + strconv.Itoa(i) + "]"
		switch {
		case strings.TrimSpace(col.Name) == "":
			return fmt.Errorf("%s: a collector needs a name", where)
		case len(col.Argv) == 0:
			return fmt.Errorf("%s (%s): argv is empty", where, col.Name)
		case col.Shell && len(col.Argv) != 1:
			return fmt.Errorf("%s (%s): with shell: true, argv is one command string", where, col.Name)
		case len(col.Reports) == 0:
			return fmt.Errorf("%s (%s): say which reports it produces (reports: [{format: ..., path: ... | stdout: true}])", where, col.Name)
		}
		if _, err := runner.Parse(col.Runner); err != nil {
			return fmt.Errorf("%s (%s): runner: %v", where, col.Name, err)
		}
		if col.Timeout != "" {
			if _, err := time.ParseDuration(col.Timeout); err != nil {
				return fmt.Errorf("%s (%s): timeout: %v", where, col.Name, err)
			}
		}
		for _, r := range col.Reports {
			if r.Format == "" || (r.Path == "") == !r.Stdout {
				return fmt.Errorf("%s (%s): each report needs a format and exactly one of path or stdout", where, col.Name)
			}
		}
	}
	for _, v := range []*float64{c.Compare.CoverageTolerance, c.Compare.ChangedFileTolerance, c.Compare.BranchCoverageTolerance} {
		if v != nil && *v < 0 {
			return fmt.Errorf("compare: tolerances cannot be negative")
		}
	}
	switch c.Compare.CICommands {
	case "", "auto", "off":
	default:
		return fmt.Errorf("compare: ci_commands is auto or off, not %q", c.Compare.CICommands)
	}
	if err := c.Mutation.validate(); err != nil {
		return err
	}
	switch c.Compare.Witness {
	case "", "auto", "off":
	default:
		return fmt.Errorf("compare: witness is auto or off, not %q", c.Compare.Witness)
	}
	for _, s := range c.Compare.CISteps {
		if wf, _, _ := strings.Cut(s, ":"); !strings.HasPrefix(wf, ".github/workflows/") {
			return fmt.Errorf("compare: ci_steps: %q is not a workflow (.github/workflows/NAME.yml) or a workflow and job (.github/workflows/NAME.yml:JOB)", s)
		}
	}
	if c.Compare.CITimeout != "" {
		if d, err := time.ParseDuration(c.Compare.CITimeout); err != nil || d <= 0 {
			return fmt.Errorf("compare: ci_timeout: %q is not a duration (30m, 90s)", c.Compare.CITimeout)
		}
	}
	if v := c.Coverage.ChangedLinesMin; v != nil && (*v < 0 || *v > 100) {
		return fmt.Errorf("coverage: changed_lines_min must be a percentage between 0 and 100, not %g", *v)
	}
	for i := range c.Waivers {
		where := "waivers[" + strconv.Itoa(i) + "]"
		if c.Waivers[i].Line > 0 {
			where = "line " + strconv.Itoa(c.Waivers[i].Line) + ": waiver"
		}
		if err := c.Waivers[i].validate(where); err != nil {
			return err
		}
	}
	for i, e := range c.Exceptions {
		where := "exceptions[" + strconv.Itoa(i) + "]"
		if e.Line > 0 {
			where = "line " + strconv.Itoa(e.Line) + ": exception"
		}
		if e.Type != "" && !knownType(e.Type) {
			return fmt.Errorf("%s: unknown finding type %q", where, e.Type)
		}
		if strings.TrimSpace(e.Reason) == "" {
			return fmt.Errorf("%s: a sanctioned exception needs a reason", where)
		}
		if e.Type == "" && e.Path == "" && e.Test == "" {
			return fmt.Errorf("%s: give at least one of type, path, test", where)
		}
		if e.Path != "" {
			if _, err := path.Match(strings.ReplaceAll(e.Path, "**", "*"), ""); err != nil {
				return fmt.Errorf("%s: bad path glob %q: %v", where, e.Path, err)
			}
		}
	}
	return nil
}

// Ignored reports whether a repository path is excluded from analysis.
func (c *Config) Ignored(p string) bool {
	if c.IgnoreDefaults == nil || *c.IgnoreDefaults {
		for _, g := range DefaultIgnore {
			if MatchGlob(g, p) {
				return true
			}
		}
	}
	for _, g := range c.Ignore {
		if MatchGlob(g, p) {
			return true
		}
	}
	return false
}

// Apply sets configured severities and marks sanctioned exceptions and
// waived findings.
func (c *Config) Apply(fs []gate.Finding) {
	for i := range fs {
		f := &fs[i]
		if s, ok := c.Severity[f.Type]; ok {
			f.Severity = s
		}
		for _, e := range c.Exceptions {
			if e.matches(f) {
				f.Suppressed = e.Reason
				break
			}
		}
		c.waive(f)
	}
}

func (e Exception) matches(f *gate.Finding) bool {
	if e.Type != "" && e.Type != f.Type {
		return false
	}
	if e.Path != "" && !MatchGlob(e.Path, f.File) {
		return false
	}
	if e.Test != "" {
		ok, err := path.Match(e.Test, f.Test)
		if err != nil || !ok {
			return false
		}
	}
	return true
}

// MatchGlob matches a slash path against a glob where "*" matches within one
// segment and "**" matches any number of segments. A glob without a slash matches
// the base name at any depth ("*.pb.go").
func MatchGlob(glob, p string) bool {
	if !strings.Contains(glob, "/") {
		ok, _ := path.Match(glob, path.Base(p))
		return ok
	}
	return matchSegments(strings.Split(glob, "/"), strings.Split(p, "/"))
}

func matchSegments(g, p []string) bool {
	for len(g) > 0 {
		if g[0] == "**" {
			rest := g[1:]
			if len(rest) == 0 {
				return true
			}
			for i := 0; i <= len(p); i++ {
				if matchSegments(rest, p[i:]) {
					return true
				}
			}
			return false
		}
		if len(p) == 0 {
			return false
		}
		if ok, err := path.Match(g[0], p[0]); err != nil || !ok {
			return false
		}
		g, p = g[1:], p[1:]
	}
	return len(p) == 0
}

// Approve is the approve label's trust: the agent's own accounts never
// approve, whatever their permission.
type Approve struct {
	// AgentAccounts are the logins the agents work as (their bot or
	// machine users).
	AgentAccounts []string `yaml:"agent_accounts"`
}
