package ghaction

import (
	"fmt"
	"strings"

	"github.com/ralph-gate/ralph-gate/collectors"
	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// DefaultApproveLabel is the label that turns a block into a pass.
const DefaultApproveLabel = "ralph-gate/approved"

// Inputs are the action's inputs (action.yml documents each).
type Inputs struct {
	// Base and Head override the range the event implies; revisions or SHAs.
	Base, Head string
	// Config is a configuration file instead of .ralph-gate.yml at BASE.
	Config string
	// FailOn is the lowest blocking severity; nil leaves it to the config.
	FailOn *gate.Severity
	// Collect is "auto", "none", or "" for the default of the event (see
	// DefaultCollect).
	Collect string
	// Reports and BaseReports are KIND=GLOB report files for HEAD and BASE.
	Reports, BaseReports []ReportGlob
	// Comment turns the sticky pull request comment on.
	Comment bool
	// AllPackages measures every package, not only those the range affects.
	AllPackages bool
	// SARIF is a path to write a SARIF file to ("" for none).
	SARIF string
	// Token authenticates the comment's API calls.
	Token string
	// ApproveLabel is the pull request label that overrides a block.
	ApproveLabel string
	// WorkingDirectory is the repository's directory, relative to
	// GITHUB_WORKSPACE ("" for the workspace itself).
	WorkingDirectory string
	// ReportFrom is the report of a measure job (its artifact) that this
	// step, run on workflow_run, posts instead of measuring.
	ReportFrom string
}

// ReportGlob is one line of the reports inputs.
type ReportGlob struct{ Kind, Glob string }

// Input reads one input as the runner passes it: INPUT_ and the name in upper
// case, hyphens kept, spaces as underscores; surrounding space is dropped.
func Input(getenv func(string) string, name string) string {
	key := "INPUT_" + strings.ToUpper(strings.ReplaceAll(name, " ", "_"))
	return strings.TrimSpace(getenv(key))
}

// ReadInputs reads and checks every input. An error names the input and the
// problem in one line.
func ReadInputs(getenv func(string) string) (Inputs, error) {
	in := Inputs{
		Base:             Input(getenv, "base"),
		Head:             Input(getenv, "head"),
		Config:           Input(getenv, "config"),
		SARIF:            Input(getenv, "sarif"),
		Token:            Input(getenv, "token"),
		ApproveLabel:     Input(getenv, "approve-label"),
		WorkingDirectory: Input(getenv, "working-directory"),
		ReportFrom:       Input(getenv, "report-from"),
	}
	if in.ApproveLabel == "" {
		in.ApproveLabel = DefaultApproveLabel
	}
	if v := Input(getenv, "fail-on"); v != "" {
		s, err := gate.ParseSeverity(v)
		if err != nil {
			return Inputs{}, fmt.Errorf("input fail-on: %v", err)
		}
		in.FailOn = &s
	}
	switch v := strings.ToLower(Input(getenv, "collect")); v {
	case "", "auto", "none":
		in.Collect = v
	default:
		return Inputs{}, fmt.Errorf("input collect: want auto or none (got %q)", v)
	}
	comment, err := boolInput(getenv, "comment", true)
	if err != nil {
		return Inputs{}, err
	}
	in.Comment = comment
	if in.AllPackages, err = boolInput(getenv, "all-packages", false); err != nil {
		return Inputs{}, err
	}
	if in.Reports, err = reportGlobs(getenv, "reports"); err != nil {
		return Inputs{}, err
	}
	if in.BaseReports, err = reportGlobs(getenv, "base-reports"); err != nil {
		return Inputs{}, err
	}
	return in, nil
}

// boolInput reads a boolean input the way @actions/core's getBooleanInput does
// (true, True, TRUE, false, ...), also taking on/off, yes/no and 1/0.
func boolInput(getenv func(string) string, name string, def bool) (bool, error) {
	switch v := strings.ToLower(Input(getenv, name)); v {
	case "":
		return def, nil
	case "true", "on", "yes", "1":
		return true, nil
	case "false", "off", "no", "0":
		return false, nil
	default:
		return false, fmt.Errorf("input %s: want true or false (got %q)", name, v)
	}
}

// reportGlobs reads a multi-line input of KIND=GLOB lines; blank lines and
// lines starting with # are skipped.
func reportGlobs(getenv func(string) string, name string) ([]ReportGlob, error) {
	var out []ReportGlob
	for i, line := range strings.Split(Input(getenv, name), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		kind, glob, ok := strings.Cut(line, "=")
		kind, glob = strings.ToLower(strings.TrimSpace(kind)), strings.TrimSpace(glob)
		if !ok || kind == "" || glob == "" {
			return nil, fmt.Errorf("input %s line %d: want KIND=GLOB, e.g. junit=out/*.xml (got %q)", name, i+1, line)
		}
		if _, err := collectors.New(kind); err != nil {
			return nil, fmt.Errorf("input %s line %d: %v", name, i+1, err)
		}
		out = append(out, ReportGlob{Kind: kind, Glob: glob})
	}
	return out, nil
}
