package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// SARIF constants. The schema address is the one GitHub's documentation and
// upload action use; the output also validates against the OASIS schema in
// testdata/schemas.
const (
	sarifSchema    = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion   = "2.1.0"
	informationURI = "https://github.com/ralph-gate/ralph-gate"
	srcRoot        = "%SRCROOT%"
	// fingerprintKey names the partial fingerprint that carries the finding's
	// stable id, so code scanning tracks one alert across runs and rebases.
	fingerprintKey = "ralphGateFindingId/v1"
)

// RepositoryAnchor is the file SARIF results point at when their finding has no
// file (an overall coverage drop, a removed command): the gate's configuration,
// where such a repository-wide finding is settled by a tolerance or a sanctioned
// exception. GitHub code scanning rejects a whole upload when one result lacks a
// physical location, and accepts only files, not directories ("." or ".github"),
// so the result needs some file; leaving the finding out would hide a current
// regression. Such results carry the property "repositoryLevel": true, and the
// file need not exist for the alert to show.
const RepositoryAnchor = ".ralph-gate.yml"

// sarifLog and the types below hold the part of SARIF 2.1.0 that ralph-gate
// writes (https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html).
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool         `json:"tool"`
	Invocations []sarifInvocation `json:"invocations"`
	Results     []sarifResult     `json:"results"`
	Properties  sarifRunProps     `json:"properties"`
}

type sarifRunProps struct {
	Base    string       `json:"base,omitempty"`
	Head    string       `json:"head,omitempty"`
	Verdict gate.Verdict `json:"verdict"`
	FailOn  string       `json:"failOn"`
	// ChangedLineCoverage is the report's changed_line_coverage, as in JSON.
	ChangedLineCoverage *gate.ChangedLines `json:"changedLineCoverage,omitempty"`
	// Witness is the report's witness (each new or edited test's outcome on
	// BASE's code), as in JSON.
	Witness *gate.Witness `json:"witness,omitempty"`
	// Mutation is the report's diff-based mutation, as in JSON.
	Mutation *gate.Mutation `json:"mutation,omitempty"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifHelp struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown"`
}

type sarifRule struct {
	ID                   string         `json:"id"`
	Name                 string         `json:"name,omitempty"`
	ShortDescription     sarifText      `json:"shortDescription"`
	FullDescription      sarifText      `json:"fullDescription"`
	DefaultConfiguration sarifConfig    `json:"defaultConfiguration"`
	Help                 sarifHelp      `json:"help"`
	Properties           sarifRuleProps `json:"properties"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifRuleProps struct {
	Tags            []string `json:"tags"`
	ProblemSeverity string   `json:"problem.severity"`
}

type sarifResult struct {
	RuleID              string             `json:"ruleId"`
	RuleIndex           int                `json:"ruleIndex"`
	Level               string             `json:"level"`
	Message             sarifText          `json:"message"`
	Locations           []sarifLocation    `json:"locations"`
	PartialFingerprints map[string]string  `json:"partialFingerprints"`
	Suppressions        []sarifSuppression `json:"suppressions,omitempty"`
	Properties          sarifResultProps   `json:"properties"`
}

type sarifResultProps struct {
	Severity        string   `json:"severity"`
	Test            string   `json:"test,omitempty"`
	Symbol          string   `json:"symbol,omitempty"`
	Commit          string   `json:"commit,omitempty"`
	Evidence        string   `json:"evidence,omitempty"`
	Rule            string   `json:"rule,omitempty"`
	BaselineValue   *float64 `json:"baselineValue,omitempty"`
	CurrentValue    *float64 `json:"currentValue,omitempty"`
	RepositoryLevel bool     `json:"repositoryLevel,omitempty"`
}

type sarifSuppression struct {
	Kind          string `json:"kind"`
	Status        string `json:"status"`
	Justification string `json:"justification"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations,omitempty"`
}

// renderSARIF writes one run with a rule per finding type and a result per net
// finding; transient findings are history, not the state of HEAD, so they are
// left out. Notes become tool execution notifications.
// maxSARIFResults bounds the results of a run: GitHub code scanning accepts
// at most 25,000 results per run and shows the 5,000 most severe
// (https://docs.github.com/en/code-security/code-scanning/integrating-with-code-scanning/sarif-support-for-code-scanning#validating-your-sarif-file),
// and the file must stay under 10 MB gzipped; 5,000 results with messages
// cut to maxSARIFMessage stay well under both.
const maxSARIFResults = 5000

// maxSARIFMessage bounds a result's message, in bytes.
const maxSARIFMessage = 2000

func renderSARIF(w io.Writer, rep *gate.Report, opt Options) error {
	v := newView(rep)
	rules, index := sarifRules(rep.Findings)
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name: toolName, Version: sarifToolVersion(rep.Tool.Version), InformationURI: informationURI, Rules: rules,
		}},
		Invocations: []sarifInvocation{{ExecutionSuccessful: true}},
		Results:     []sarifResult{},
		Properties: sarifRunProps{
			Base: rep.Base, Head: rep.Head, Verdict: v.verdict, FailOn: v.failOn.String(),
			ChangedLineCoverage: rep.ChangedLineCoverage, Witness: rep.Witness, Mutation: rep.Mutation,
		},
	}
	for _, n := range rep.Notes {
		msg := n.Message
		if msg == "" {
			msg = "note"
		}
		note := sarifNotification{Level: "note", Message: sarifText{Text: msg}}
		if p := repoPath(n.File, opt.RepoRoot); p != "" {
			// A note is about a whole file, often a binary one: no region.
			note.Locations = []sarifLocation{{PhysicalLocation: sarifPhysical{
				ArtifactLocation: sarifArtifact{URI: sarifURI(p), URIBaseID: srcRoot},
			}}}
		}
		run.Invocations[0].ToolExecutionNotifications = append(run.Invocations[0].ToolExecutionNotifications, note)
	}
	var net []gate.Finding
	for _, f := range rep.Findings {
		if f.Net {
			net = append(net, f)
		}
	}
	if len(net) > maxSARIFResults {
		// Most severe first, so that the cut keeps what matters.
		slices.SortStableFunc(net, func(a, b gate.Finding) int { return cmp.Compare(b.Severity, a.Severity) })
	}
	// partialFingerprints must tell results apart: GitHub merges results
	// that share one.
	fps := uniqueFingerprints(net)
	for i, f := range net {
		if i == maxSARIFResults {
			run.Invocations[0].ToolExecutionNotifications = append(run.Invocations[0].ToolExecutionNotifications, sarifNotification{
				Level: "warning",
				Message: sarifText{Text: fmt.Sprintf("%d more findings are not in this file: GitHub code scanning shows at most %d results of a run (the JSON report has them all)",
					len(net)-maxSARIFResults, maxSARIFResults)},
			})
			break
		}
		run.Results = append(run.Results, sarifResultFor(f, fps[i], index, opt))
	}
	return writeJSON(w, sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}})
}

// sarifResultFor is the result of a finding whose fingerprint is fp.
func sarifResultFor(f gate.Finding, fp string, index map[string]int, opt Options) sarifResult {
	id := ruleID(f.Type)
	msg := f.Message
	if strings.TrimSpace(msg) == "" {
		msg = ruleDescription(f.Type)
	}
	if len(msg) > maxSARIFMessage {
		msg = truncate(msg, maxSARIFMessage/4)
	}
	r := sarifResult{
		RuleID:              id,
		RuleIndex:           index[id],
		Level:               sarifLevel(f.Severity),
		Message:             sarifText{Text: msg},
		PartialFingerprints: map[string]string{fingerprintKey: fp},
		Properties: sarifResultProps{
			Severity:      f.Severity.String(),
			Test:          f.Test,
			Symbol:        f.Symbol,
			Commit:        f.Commit,
			Evidence:      string(f.Evidence),
			Rule:          f.Rule,
			BaselineValue: f.BaselineValue,
			CurrentValue:  f.CurrentValue,
		},
	}
	p := repoPath(f.File, opt.RepoRoot)
	if p == "" {
		p = RepositoryAnchor
		r.Properties.RepositoryLevel = true
	}
	r.Locations = []sarifLocation{sarifLocationAt(p, f.Line)}
	if f.Suppressed != "" {
		r.Suppressions = []sarifSuppression{{Kind: "external", Status: "accepted", Justification: f.Suppressed}}
	}
	return r
}

// sarifLocationAt points at a line of a repository file. GitHub requires a
// region, so a finding about a whole file (line 0) points at its first line.
func sarifLocationAt(p string, line int) sarifLocation {
	return sarifLocation{PhysicalLocation: sarifPhysical{
		ArtifactLocation: sarifArtifact{URI: sarifURI(p), URIBaseID: srcRoot},
		Region:           &sarifRegion{StartLine: max(line, 1)},
	}}
}

// sarifURI writes a relative slash path as a URI reference: every byte but
// unreserved characters, "/" and a few safe sub-delimiters is percent-encoded,
// ":" included so that no first segment reads as a scheme.
func sarifURI(p string) string { return percentEncode(p, "-._~/!$&'()*+,;=@") }

// percentEncode percent-encodes every byte of p but ASCII letters, digits
// and those of safe.
func percentEncode(p, safe string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if isASCIILetter(c) || (c >= '0' && c <= '9') || strings.IndexByte(safe, c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// sarifLevel maps a severity to a SARIF level: critical and high are errors,
// medium a warning, low (and none) a note.
func sarifLevel(s gate.Severity) string {
	switch s {
	case gate.SeverityCritical, gate.SeverityHigh:
		return "error"
	case gate.SeverityMedium:
		return "warning"
	case gate.SeverityLow, gate.SeverityNone:
		return "note"
	}
	return "warning"
}

// problemSeverity is GitHub's reading of a level, shown on the alert.
func problemSeverity(level string) string {
	switch level {
	case "error":
		return "error"
	case "warning":
		return "warning"
	}
	return "recommendation"
}

func ruleID(t gate.FindingType) string {
	if t == "" {
		return "unknown"
	}
	return string(t)
}

// sarifRules makes one rule per finding type of the contract, then one for each
// type a finding has that the contract does not know, and returns their indexes.
func sarifRules(findings []gate.Finding) ([]sarifRule, map[string]int) {
	types := append([]gate.FindingType(nil), gate.FindingTypes...)
	index := make(map[string]int)
	for i, t := range types {
		index[ruleID(t)] = i
	}
	for _, f := range findings {
		if _, ok := index[ruleID(f.Type)]; !ok && f.Net {
			index[ruleID(f.Type)] = len(types)
			types = append(types, f.Type)
		}
	}
	rules := make([]sarifRule, len(types))
	for i, t := range types {
		level := sarifLevel(gate.DefaultSeverity(t))
		desc := ruleDescription(t)
		help := ruleHelp(t)
		rules[i] = sarifRule{
			ID:                   ruleID(t),
			Name:                 ruleName(ruleID(t)),
			ShortDescription:     sarifText{Text: desc},
			FullDescription:      sarifText{Text: desc + " Default severity: " + gate.DefaultSeverity(t).String() + "."},
			DefaultConfiguration: sarifConfig{Level: level},
			Help:                 sarifHelp{Text: help, Markdown: "**" + ruleID(t) + "**: " + help},
			Properties: sarifRuleProps{
				Tags:            []string{"ralph-gate", "regression", ruleTag(t)},
				ProblemSeverity: problemSeverity(level),
			},
		}
	}
	return rules, index
}

// ruleDescription is gate.Description, never empty.
func ruleDescription(t gate.FindingType) string {
	if d := gate.Description(t); strings.TrimSpace(d) != "" {
		return d
	}
	return "A regression reported by ralph-gate."
}

// ruleName is a rule's readable name: "TestDeletion" for "test_deletion".
// SARIF wants the name to differ from the id (§3.49.7; Microsoft's SARIF
// multitool warns, SARIF1001, even when they differ only in case), so a
// one-word id gets a suffix: "unverified" is "UnverifiedFinding".
func ruleName(id string) string {
	name := camelCase(id)
	if strings.EqualFold(name, id) {
		name += "Finding"
	}
	return name
}

// sarifToolVersion is the driver's version as SARIF consumers compare it:
// starting with a digit (SARIF2005). A tag's "v" goes ("v1.2.3" is
// "1.2.3"); a build without a release version ("devel", "ci") is a
// pre-release of 0.0.0 ("0.0.0-devel"), which sorts before every release.
func sarifToolVersion(v string) string {
	v = strings.TrimSpace(v)
	if len(v) > 1 && (v[0] == 'v' || v[0] == 'V') && v[1] >= '0' && v[1] <= '9' {
		v = v[1:]
	}
	if v == "" || (v[0] >= '0' && v[0] <= '9') {
		return v
	}
	return "0.0.0-" + v
}

// camelCase turns "test_deletion" into "TestDeletion".
func camelCase(id string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(id, func(r rune) bool { return r == '_' || r == '-' || r == ' ' }) {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	if b.Len() == 0 {
		return "Unknown"
	}
	return b.String()
}

func ruleTag(t gate.FindingType) string {
	switch t {
	case gate.TestDeletion, gate.TestSkipping, gate.AssertionWeakening:
		return "tests"
	case gate.ErrorSuppression:
		return "maintainability"
	case gate.ValidationBypass:
		return "ci"
	case gate.FeatureRemoval:
		return "api"
	case gate.CoverageRegression:
		return "coverage"
	case gate.TestRegression:
		return "tests"
	case gate.Unverified:
		return "evidence"
	}
	return "other"
}

// ruleHelp says what to do about a finding of type t.
func ruleHelp(t gate.FindingType) string {
	switch t {
	case gate.TestDeletion:
		return "A test that existed at the base of the range is gone at its head. Restore the test; if the behaviour it covered was removed on purpose, record a sanctioned exception in the gate's configuration."
	case gate.TestSkipping:
		return "A test that ran at the base no longer runs. Remove the skip, todo, xfail or guard and make the test pass, or record why it must not run."
	case gate.AssertionWeakening:
		return "A test checks less than it did. Restore the assertion or its expected value and fix the code under test; if the expected behaviour really changed, say so in the commit and record a sanctioned exception."
	case gate.ErrorSuppression:
		return "A type checker, linter or error was silenced. Fix the underlying problem instead of suppressing it, or justify the suppression in a sanctioned exception."
	case gate.ValidationBypass:
		return "The machinery that checks the code was loosened (CI test step, test command, coverage threshold, strictness, or code that special-cases a test's input). Revert the change to the checks."
	case gate.FeatureRemoval:
		return "Public API or a command disappeared without a replacement. Restore it, or record the removal as intended."
	case gate.CoverageRegression:
		return "Test coverage fell by more than the configured tolerance. Add tests for the uncovered code, or restore the tests that covered it."
	case gate.TestRegression:
		return "A test that passed at the base fails at the head, or a package that built and ran there no longer builds, crashes or exits early. Fix the code (or the build) until the test passes again; the finding names the failure."
	case gate.Unverified:
		return "ralph-gate could not read a changed test, test-config or CI file (binary, oversize, a symlink, a submodule, unparseable), or a check could not run, so it cannot tell whether the change hides a regression. Make the file readable, or have a person review it."
	}
	return "A regression reported by ralph-gate."
}
