package collectors

import (
	"fmt"
	"io"
)

// ESLint parses the output of eslint's JSON formatter (eslint -f json):
//
//	[{"filePath": "/src/a.js",
//	  "messages": [
//	    {"ruleId": "no-unused-vars", "severity": 2, "message": "'x' is assigned a value but never used.", "line": 1, "column": 7},
//	    {"ruleId": null, "fatal": true, "severity": 2, "message": "Parsing error: Unexpected token", "line": 3, "column": 1}],
//	  "suppressedMessages": [],
//	  "errorCount": 2, "fatalErrorCount": 1, "warningCount": 0, "fixableErrorCount": 0, "fixableWarningCount": 0}]
//
// Spec: https://eslint.org/docs/latest/use/formatters/#json and the
// LintResult type (https://eslint.org/docs/latest/integrate/nodejs-api#-lintresult-type).
//
// Messages of severity 2 count as errors and 1 as warnings; fatal messages
// (parse errors, rule id null) have severity 2 and count as errors under the
// rule "". suppressedMessages (eslint-disable comments) are not counted: the
// static analyzer reports new suppressions. The counts are what the messages
// say; the file's errorCount and warningCount must agree with them, and a
// disagreement is an error (an edited or mixed-up report).
type ESLint struct{}

// Format returns "eslint".
func (ESLint) Format() string { return FormatESLint }

type eslintFile struct {
	FilePath string `json:"filePath"`
	Messages []struct {
		RuleID   *string `json:"ruleId"`
		Severity int     `json:"severity"`
		Fatal    bool    `json:"fatal"`
	} `json:"messages"`
	ErrorCount   *int `json:"errorCount"`
	WarningCount *int `json:"warningCount"`
}

// Parse reads eslint's JSON output.
func (ESLint) Parse(name string, r io.Reader) (*Result, error) {
	j := newJSONStream(FormatESLint, name, r)
	if err := j.delim('[', "eslint results"); err != nil {
		return nil, err
	}
	diags := &Diagnostics{}
	for i := 0; j.d.More(); i++ {
		var f eslintFile
		what := fmt.Sprintf("results[%d]", i)
		if err := j.decode(&f, what); err != nil {
			return nil, err
		}
		if f.FilePath == "" {
			return nil, j.errorf("%s: no filePath", what)
		}
		errs, warns := 0, 0
		for k, m := range f.Messages {
			rule := ""
			if m.RuleID != nil {
				rule = *m.RuleID
			}
			switch {
			case m.Severity == 2 || m.Fatal:
				errs++
				diags.add(rule, levelError)
			case m.Severity == 1:
				warns++
				diags.add(rule, levelWarning)
			default:
				return nil, j.errorf("%s (%s): messages[%d] has severity %d, want 1 or 2", what, f.FilePath, k, m.Severity)
			}
		}
		if f.ErrorCount != nil && *f.ErrorCount != errs || f.WarningCount != nil && *f.WarningCount != warns {
			return nil, j.errorf("%s (%s): errorCount %s and warningCount %s disagree with its messages (%d errors, %d warnings)",
				what, f.FilePath, intOrAbsent(f.ErrorCount), intOrAbsent(f.WarningCount), errs, warns)
		}
	}
	if err := j.delim(']', "eslint results"); err != nil {
		return nil, err
	}
	if err := j.eof(); err != nil {
		return nil, err
	}
	return &Result{Sources: []string{name}, Lint: diags}, nil
}

func intOrAbsent(p *int) string {
	if p == nil {
		return "absent"
	}
	return fmt.Sprint(*p)
}
