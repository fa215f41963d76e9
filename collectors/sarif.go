package collectors

import (
	"fmt"
	"io"
)

// SARIF parses SARIF 2.1.0 logs, as eslint (@microsoft/eslint-formatter-sarif),
// golangci-lint, ruff and CodeQL write them:
//
//	{"version": "2.1.0", "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
//	 "runs": [{"tool": {"driver": {"name": "ESLint", "rules": [
//	     {"id": "no-unused-vars", "defaultConfiguration": {"level": "error"}}]}},
//	   "results": [
//	     {"ruleId": "no-unused-vars", "ruleIndex": 0, "message": {"text": "'x' is unused"}},
//	     {"ruleId": "eqeqeq", "level": "warning", "message": {"text": "Expected '==='"}}]}]}
//
// Spec: https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html.
//
// A result's level is its own level; when absent, and the result's kind is
// absent or "fail", its rule's defaultConfiguration.level (the rule found by
// rule.index, ruleIndex or rule id, in the driver or the extension named by
// rule.toolComponent.index), then "warning" (§3.27.10); a result of any other
// kind (pass, review, informational...) without a level has level "none".
// error counts as an error, warning as a warning; note and none are not
// counted. Notifications of level error in a run's invocations (eslint
// reports a file it cannot parse there, with executionSuccessful false)
// count as errors under their descriptor id, as eslint's other formats
// count the same parse error; notifications of other levels are not
// counted. A suppressed result (a suppression that is accepted or has no
// status, and none under review or rejected, §3.27.23) is not counted. A run
// whose results are null or absent did not analyse anything (§3.14.23) and
// is an error, as is a version other than 2.1.0.
type SARIF struct{}

// Format returns "sarif".
func (SARIF) Format() string { return FormatSARIF }

type sarifRun struct {
	Tool struct {
		Driver     sarifComponent   `json:"driver"`
		Extensions []sarifComponent `json:"extensions"`
	} `json:"tool"`
	Results     *[]sarifResult `json:"results"`
	Invocations []struct {
		ToolExecutionNotifications     []sarifNotification `json:"toolExecutionNotifications"`
		ToolConfigurationNotifications []sarifNotification `json:"toolConfigurationNotifications"`
	} `json:"invocations"`
}

// sarifNotification is a message about the run itself, such as eslint's
// "Parsing error" for a file it could not lint.
type sarifNotification struct {
	Level      string `json:"level"`
	Descriptor *struct {
		ID string `json:"id"`
	} `json:"descriptor"`
}

type sarifComponent struct {
	Name  string      `json:"name"`
	Rules []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string `json:"id"`
	DefaultConfiguration *struct {
		Level string `json:"level"`
	} `json:"defaultConfiguration"`
}

type sarifResult struct {
	RuleID    string `json:"ruleId"`
	RuleIndex *int   `json:"ruleIndex"`
	Rule      *struct {
		ID            string `json:"id"`
		Index         *int   `json:"index"`
		ToolComponent *struct {
			Index *int `json:"index"`
		} `json:"toolComponent"`
	} `json:"rule"`
	Level        string `json:"level"`
	Kind         string `json:"kind"`
	Suppressions []struct {
		Status string `json:"status"`
	} `json:"suppressions"`
}

// Parse reads one SARIF log.
func (SARIF) Parse(name string, r io.Reader) (*Result, error) {
	j := newJSONStream(FormatSARIF, name, r)
	if err := j.delim('{', "SARIF log"); err != nil {
		return nil, err
	}
	diags := &Diagnostics{}
	version, runs := "", false
	for {
		k, end, err := j.key("SARIF log")
		if err != nil {
			return nil, err
		}
		if end {
			break
		}
		switch k {
		case "version":
			if err := j.decode(&version, "version"); err != nil {
				return nil, err
			}
			if version != "2.1.0" {
				return nil, j.errorf("version %q, want \"2.1.0\"", version)
			}
		case "runs":
			runs = true
			if err := j.delim('[', "runs"); err != nil {
				return nil, err
			}
			for i := 0; j.d.More(); i++ {
				var run sarifRun
				what := fmt.Sprintf("runs[%d]", i)
				if err := j.decode(&run, what); err != nil {
					return nil, err
				}
				if err := sarifCount(diags, &run); err != nil {
					return nil, j.errorf("%s: %v", what, err)
				}
			}
			if err := j.delim(']', "runs"); err != nil {
				return nil, err
			}
		default:
			if err := j.skip(k); err != nil {
				return nil, err
			}
		}
	}
	if version == "" {
		return nil, j.errorf("no version, want \"2.1.0\"")
	}
	if !runs {
		return nil, j.errorf("no runs")
	}
	if err := j.eof(); err != nil {
		return nil, err
	}
	return &Result{Sources: []string{name}, Lint: diags}, nil
}

func sarifCount(d *Diagnostics, run *sarifRun) error {
	if run.Results == nil {
		return fmt.Errorf("results are null or absent: %s did not analyse anything", orUnknown(run.Tool.Driver.Name))
	}
	byID := make(map[string]*sarifRule)
	for _, comp := range append([]sarifComponent{run.Tool.Driver}, run.Tool.Extensions...) {
		for i := range comp.Rules {
			if _, ok := byID[comp.Rules[i].ID]; !ok {
				byID[comp.Rules[i].ID] = &comp.Rules[i]
			}
		}
	}
	for _, inv := range run.Invocations {
		for _, n := range append(inv.ToolExecutionNotifications, inv.ToolConfigurationNotifications...) {
			if n.Level == "error" {
				id := ""
				if n.Descriptor != nil {
					id = n.Descriptor.ID
				}
				d.add(id, levelError)
			}
		}
	}
	for i, res := range *run.Results {
		if sarifSuppressed(&res) {
			continue
		}
		rule, id, err := sarifRuleOf(run, &res, byID)
		if err != nil {
			return fmt.Errorf("results[%d]: %v", i, err)
		}
		lvl := res.Level
		if lvl == "" {
			switch {
			case res.Kind != "" && res.Kind != "fail":
				lvl = "none"
			case rule != nil && rule.DefaultConfiguration != nil && rule.DefaultConfiguration.Level != "":
				lvl = rule.DefaultConfiguration.Level
			default:
				lvl = "warning"
			}
		}
		switch lvl {
		case "error":
			d.add(id, levelError)
		case "warning":
			d.add(id, levelWarning)
		case "note", "none":
		default:
			return fmt.Errorf("results[%d]: level %q, want error, warning, note or none", i, lvl)
		}
	}
	return nil
}

// sarifRuleOf finds a result's rule and id: by rule.index or ruleIndex in the
// driver or the extension rule.toolComponent.index names, else by id.
func sarifRuleOf(run *sarifRun, res *sarifResult, byID map[string]*sarifRule) (*sarifRule, string, error) {
	id := res.RuleID
	idx := res.RuleIndex
	comp := &run.Tool.Driver
	if res.Rule != nil {
		if id == "" {
			id = res.Rule.ID
		}
		if res.Rule.Index != nil {
			idx = res.Rule.Index
		}
		if tc := res.Rule.ToolComponent; tc != nil && tc.Index != nil {
			if *tc.Index < 0 || *tc.Index >= len(run.Tool.Extensions) {
				return nil, "", fmt.Errorf("rule.toolComponent.index %d out of range (%d extensions)", *tc.Index, len(run.Tool.Extensions))
			}
			comp = &run.Tool.Extensions[*tc.Index]
		}
	}
	if idx != nil && *idx >= 0 {
		if *idx >= len(comp.Rules) {
			return nil, "", fmt.Errorf("rule index %d out of range (%d rules)", *idx, len(comp.Rules))
		}
		rule := &comp.Rules[*idx]
		if id == "" {
			id = rule.ID
		}
		return rule, id, nil
	}
	return byID[id], id, nil
}

func sarifSuppressed(res *sarifResult) bool {
	accepted := false
	for _, s := range res.Suppressions {
		switch s.Status {
		case "", "accepted":
			accepted = true
		default: // underReview, rejected
			return false
		}
	}
	return accepted
}

func orUnknown(s string) string {
	if s == "" {
		return "the tool"
	}
	return s
}
