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
	ew.printf("%s: %s\n", toolName, v.verdictLine())
	return ew.err
}

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
