package report

import (
	"fmt"
	"io"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// reviewdog's Diagnostic Format, rdjson (--format rdjson; reviewdog -f=rdjson):
// a DiagnosticResult with one Diagnostic per net finding, as defined by
// https://github.com/reviewdog/reviewdog/blob/master/proto/rdf/reviewdog.proto
// and its JSON Schema (proto/rdf/jsonschema/DiagnosticResult.json, kept in
// testdata/schemas). Only the proto's fields are written: reviewdog reads
// the file with protojson.
type rdResult struct {
	Source      rdSource       `json:"source"`
	Diagnostics []rdDiagnostic `json:"diagnostics"`
}

type rdSource struct {
	Name string `json:"name"`
	URL  string `json:"url,omitempty"`
}

type rdDiagnostic struct {
	Message  string     `json:"message"`
	Location rdLocation `json:"location"`
	Severity string     `json:"severity"`
	Code     rdCode     `json:"code"`
	// OriginalOutput is the finding as one plain-text line,
	// "path:line: severity: message (check)", the shape reviewdog's own
	// checkstyle parser gives it. reviewdog's local reporter (its default)
	// prints exactly this field, and its GitHub check and Actions log
	// reporters show it as the raw details; without it reviewdog 0.21
	// fills it with the diagnostic in protobuf text format.
	OriginalOutput string `json:"original_output"`
}

type rdLocation struct {
	Path  string  `json:"path"`
	Range rdRange `json:"range"`
}

type rdRange struct {
	Start rdPosition `json:"start"`
}

type rdPosition struct {
	Line int `json:"line"`
}

type rdCode struct {
	Value string `json:"value"`
	URL   string `json:"url,omitempty"`
}

// rdSeverity: a finding that blocks at the report's fail-on is an ERROR,
// another net finding a WARNING, a suppressed one INFO.
func rdSeverity(f gate.Finding, failOn gate.FailOn) string {
	switch {
	case f.Suppressed != "":
		return "INFO"
	case f.BlocksAt(failOn):
		return "ERROR"
	}
	return "WARNING"
}

func renderRDJSON(w io.Writer, rep *gate.Report, opt Options) error {
	failOn := gate.FailOn(rep.FailOn)
	out := rdResult{Source: rdSource{Name: toolName, URL: informationURI}, Diagnostics: []rdDiagnostic{}}
	for _, f := range netFindings(rep) {
		p := repoPath(f.File, opt.RepoRoot)
		if p == "" {
			p = RepositoryAnchor
		}
		line := max(f.Line, 1)
		out.Diagnostics = append(out.Diagnostics, rdDiagnostic{
			// reviewdog posts the message as a review comment, which the
			// forge renders as markdown: test names and messages come from
			// the change, so they are escaped like every markdown ralph-gate
			// writes (no @mention, no link, no HTML).
			Message:  "[" + f.Severity.String() + "] " + mdText(describe(f), 2000),
			Location: rdLocation{Path: p, Range: rdRange{Start: rdPosition{Line: line}}},
			Severity: rdSeverity(f, failOn),
			Code:     rdCode{Value: checkName(f)},
			// Plain text: no reporter renders it as markdown.
			OriginalOutput: cleanLine(fmt.Sprintf("%s:%d: %s: %s (%s)", p, line, f.Severity, truncate(describe(f), 2000), checkName(f))),
		})
	}
	return writeJSON(w, out)
}
