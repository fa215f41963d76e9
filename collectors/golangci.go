package collectors

import (
	"errors"

	"io"
	"strings"
)

// GolangCI parses golangci-lint's JSON output (v1 --out-format json, v2
// --output.json.path):
//
//	{"Issues": [
//	   {"FromLinter": "errcheck", "Text": "Error return value of `f.Close` is not checked",
//	    "Severity": "error", "Pos": {"Filename": "calc/calc.go", "Line": 27, "Column": 9}},
//	   {"FromLinter": "staticcheck", "Text": "SA6005: should use strings.EqualFold instead",
//	    "Severity": "warning", "Pos": {"Filename": "calc/calc.go", "Line": 40, "Column": 5}}],
//	 "Report": {"Linters": [{"Name": "errcheck", "Enabled": true}]}}
//	2 issues:
//	* errcheck: 1
//	* staticcheck: 1
//
// Spec: https://golangci-lint.run/docs/configuration/cli/ (output formats) and
// the printers package of github.com/golangci/golangci-lint.
//
// The rule is the issue's FromLinter. Severity is empty unless the
// configuration sets one; golangci-lint fails the run on every issue and its
// own checkstyle and SARIF printers write an empty severity as "error", so
// empty and "error" count as errors, "warning" (or "warn") as a warning,
// "info", "note", "hint" and "ignore" are not counted, and any other
// configured name counts as an error. Issues is null when there are none. A
// Report.Error means the run failed and the counts are incomplete: it is an
// error. Text after the JSON document is ignored: golangci-lint v2 prints its
// issue summary there when writing to stdout (--show-stats, the default).
type GolangCI struct{}

// Format returns "golangci".
func (GolangCI) Format() string { return FormatGolangCI }

type golangciIssue struct {
	FromLinter string `json:"FromLinter"`
	Severity   string `json:"Severity"`
}

// Parse reads golangci-lint's JSON output.
func (GolangCI) Parse(name string, r io.Reader) (*Result, error) {
	j := newJSONStream(FormatGolangCI, name, r)
	if err := j.delim('{', "golangci-lint report"); err != nil {
		return nil, err
	}
	diags := &Diagnostics{}
	sawIssues := false
	for {
		k, end, err := j.key("golangci-lint report")
		if err != nil {
			return nil, err
		}
		if end {
			break
		}
		switch k {
		case "Issues":
			sawIssues = true
			var issues []golangciIssue
			if err := j.decode(&issues, "Issues"); err != nil {
				return nil, err
			}
			for i, is := range issues {
				if is.FromLinter == "" {
					return nil, j.errorf("Issues[%d] has no FromLinter", i)
				}
				diags.add(is.FromLinter, golangciLevel(is.Severity))
			}
		case "Report":
			var rep struct {
				Error string `json:"Error"`
			}
			if err := j.decode(&rep, "Report"); err != nil {
				return nil, err
			}
			if rep.Error != "" {
				return nil, j.errorf("golangci-lint reports that the run failed: %s", firstLine(rep.Error))
			}
		default:
			if err := j.skip(k); err != nil {
				return nil, err
			}
		}
	}
	if !sawIssues {
		return nil, offsetError(FormatGolangCI, name, j.d.InputOffset(), errors.New("no Issues field: not golangci-lint JSON output"))
	}
	return &Result{Sources: []string{name}, Lint: diags}, nil
}

func golangciLevel(sev string) level {
	switch strings.ToLower(strings.TrimSpace(sev)) {
	case "warning", "warn":
		return levelWarning
	case "info", "note", "hint", "ignore":
		return levelIgnored
	}
	return levelError
}
