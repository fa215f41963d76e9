package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// renderGitHub writes one workflow command per net finding, so each shows as an
// annotation on the pull request's diff, then a plain summary line with the
// verdict. Critical and high findings are errors, medium ones warnings, low ones
// notices; a suppressed finding is a notice whatever its severity, since it
// cannot block. Transient findings are history and get no annotation.
//
// Syntax: https://docs.github.com/actions/reference/workflow-commands-for-github-actions
func renderGitHub(w io.Writer, rep *gate.Report, opt Options) error {
	v := newView(rep)
	ew := &errWriter{w: w}
	for _, f := range rep.Findings {
		if f.Net {
			ew.write(annotation(f, opt) + "\n")
		}
	}
	if cl := rep.ChangedLineCoverage; cl != nil {
		n := 0
	files:
		for _, f := range cl.Files {
			for _, s := range spans(f.Uncovered) {
				if n == maxCoverageAnnotations {
					break files
				}
				n++
				ew.printf("::notice file=%s,line=%d,endLine=%d,title=%s::%s\n", escapeProperty(f.File), s.from, s.to,
					escapeProperty(toolName+": changed lines not run by tests"),
					escapeData(spanSentence(s)))
			}
		}
		ew.printf("%s: %s\n", toolName, changedLinesLine(cl))
	}
	ew.printf("%s: %s\n", toolName, v.verdictLine())
	return ew.err
}

func spanSentence(s lineSpan) string {
	if s.from == s.to {
		return fmt.Sprintf("Line %s was added or changed and no test ran it.", s)
	}
	return fmt.Sprintf("Lines %s were added or changed and no test ran them.", s)
}

// maxCoverageAnnotations bounds the notices for uncovered changed lines:
// GitHub shows at most 10 notices per step anyway, and the job summary and
// JSON report have them all.
const maxCoverageAnnotations = 10

func annotation(f gate.Finding, opt Options) string {
	cmd := annotationCommand(f.Severity)
	title := fmt.Sprintf("%s: %s (%s)", toolName, f.Type, f.Severity)
	if f.Suppressed != "" {
		cmd = "notice"
		title += " suppressed"
	}
	var props []string
	if p := repoPath(f.File, opt.RepoRoot); p != "" {
		props = append(props, "file="+escapeProperty(p))
		if f.Line > 0 {
			props = append(props, "line="+strconv.Itoa(f.Line))
		}
	}
	props = append(props, "title="+escapeProperty(title))

	msg := f.Message
	if s := subject(f); s != "" {
		msg += " [" + s + "]"
	}
	if f.Suppressed != "" {
		msg += " (suppressed: " + f.Suppressed + ")"
	}
	return "::" + cmd + " " + strings.Join(props, ",") + "::" + escapeData(msg)
}

func annotationCommand(s gate.Severity) string {
	switch {
	case s >= gate.SeverityHigh:
		return "error"
	case s == gate.SeverityMedium:
		return "warning"
	}
	return "notice"
}

// escapeData escapes a command's message as @actions/core's escapeData does.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a property value as @actions/core's escapeProperty does.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
