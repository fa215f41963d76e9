package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// GitLab Code Quality (--format codeclimate): the subset of the Code Climate
// issue format that GitLab's merge request widget reads, one issue per net
// finding (https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format):
// description, check_name, fingerprint (unique: GitLab shows one issue per
// fingerprint), severity (info, minor, major, critical or blocker) and
// location.path with location.lines.begin. type and categories make the
// issues valid Code Climate engine output as well
// (https://github.com/codeclimate/platform/blob/master/spec/analyzers/SPEC.md).
type ccIssue struct {
	Type        string     `json:"type"`
	CheckName   string     `json:"check_name"`
	Description string     `json:"description"`
	Categories  []string   `json:"categories"`
	Severity    string     `json:"severity"`
	Fingerprint string     `json:"fingerprint"`
	Location    ccLocation `json:"location"`
}

type ccLocation struct {
	Path  string  `json:"path"`
	Lines ccLines `json:"lines"`
}

type ccLines struct {
	Begin int `json:"begin"`
}

// ccSeverity maps a finding's severity to GitLab's scale. A suppressed
// finding never blocks: it is info, and says why in its description.
func ccSeverity(f gate.Finding) string {
	if f.Suppressed != "" {
		return "info"
	}
	switch f.Severity {
	case gate.SeverityCritical:
		return "blocker"
	case gate.SeverityHigh:
		return "critical"
	case gate.SeverityMedium:
		return "major"
	case gate.SeverityLow:
		return "minor"
	}
	return "info"
}

// checkName names the check that raised a finding: its type and, when it
// has one, its rule ("test_deletion/test-removed").
func checkName(f gate.Finding) string {
	if f.Rule == "" {
		return string(f.Type)
	}
	return string(f.Type) + "/" + f.Rule
}

// describe is a finding's one-line message for formats without fields for
// its subject or suppression: the message, the test or symbol when the
// message does not name it, and the reason it is suppressed.
func describe(f gate.Finding) string {
	msg := strings.TrimSpace(f.Message)
	if msg == "" {
		msg = ruleDescription(f.Type)
	}
	if s := subject(f); s != "" && !strings.Contains(msg, s) {
		msg = s + ": " + msg
	}
	if f.Suppressed != "" {
		msg += " (suppressed: " + f.Suppressed + ")"
	}
	return cleanLine(msg)
}

// uniqueFingerprints returns the findings' stable ids, made unique with a
// suffix where two findings share one.
func uniqueFingerprints(fs []gate.Finding) []string {
	seen := map[string]int{}
	out := make([]string, len(fs))
	for i, f := range fs {
		fp := f.ID
		if fp == "" {
			fp = gate.MakeID(f.Type, f.Rule, f.File, subject(f), f.Message)
		}
		if n := seen[fp]; n > 0 {
			out[i] = fmt.Sprintf("%s/%d", fp, n+1)
		} else {
			out[i] = fp
		}
		seen[fp]++
	}
	return out
}

// netFindings lists the findings present at HEAD, suppressed ones
// included, in the order other renderers show them.
func netFindings(rep *gate.Report) []gate.Finding {
	var net []gate.Finding
	for _, f := range rep.Findings {
		if f.Net {
			net = append(net, f)
		}
	}
	slices.SortStableFunc(net, compareFindings)
	return net
}

func renderCodeClimate(w io.Writer, rep *gate.Report, opt Options) error {
	net := netFindings(rep)
	fps := uniqueFingerprints(net)
	issues := make([]ccIssue, 0, len(net))
	for i, f := range net {
		p := repoPath(f.File, opt.RepoRoot)
		if p == "" {
			p = RepositoryAnchor
		}
		issues = append(issues, ccIssue{
			Type:        "issue",
			CheckName:   checkName(f),
			Description: describe(f),
			Categories:  []string{"Bug Risk"},
			Severity:    ccSeverity(f),
			Fingerprint: fps[i],
			Location:    ccLocation{Path: p, Lines: ccLines{Begin: max(f.Line, 1)}},
		})
	}
	return writeJSON(w, issues)
}
