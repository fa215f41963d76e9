package ghaction

import (
	"fmt"
	"path"
	"slices"
	"strconv"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/report"
)

// GitHub shows at most this many error and this many warning annotations of
// one step; more are dropped silently, so the gate emits no more and lists the
// rest in the job summary.
// https://docs.github.com/actions/reference/workflow-commands-for-github-actions
const (
	MaxErrorAnnotations   = 10
	MaxWarningAnnotations = 10
)

// Annotation levels.
const (
	LevelError   = "error"
	LevelWarning = "warning"
)

// Annotation is one workflow-command annotation.
type Annotation struct {
	Level   string
	File    string // relative to GITHUB_WORKSPACE; "" for none
	Line    int
	Title   string
	Message string
}

// Fields are the annotation's properties for go-githubactions.
func (a Annotation) Fields() map[string]string {
	m := map[string]string{"title": a.Title}
	if a.File != "" {
		m["file"] = a.File
		if a.Line > 0 {
			m["line"] = strconv.Itoa(a.Line)
		}
	}
	return m
}

// SelectAnnotations picks the annotations of a report's net, unsuppressed
// findings, highest severity first: a finding that blocks under failOn is an
// error, any other a warning. Findings past GitHub's limits come back as
// overflow. prefix is the repository's path under GITHUB_WORKSPACE ("" when the
// repository is the workspace), since annotation paths are relative to it.
func SelectAnnotations(rep *gate.Report, failOn gate.FailOn, prefix string) (shown []Annotation, overflow []gate.Finding) {
	var net []gate.Finding
	for _, f := range rep.Findings {
		if f.Net && f.Suppressed == "" {
			net = append(net, f)
		}
	}
	slices.SortStableFunc(net, func(a, b gate.Finding) int { return int(b.Severity) - int(a.Severity) })
	errors, warnings := 0, 0
	for _, f := range net {
		level := LevelWarning
		if failOn.Blocks(f.Severity) {
			level = LevelError
		}
		switch {
		case level == LevelError && errors < MaxErrorAnnotations:
			errors++
		case level == LevelWarning && warnings < MaxWarningAnnotations:
			warnings++
		default:
			overflow = append(overflow, f)
			continue
		}
		shown = append(shown, annotationOf(f, level, prefix))
	}
	return shown, overflow
}

func annotationOf(f gate.Finding, level, prefix string) Annotation {
	a := Annotation{
		Level:   level,
		Title:   fmt.Sprintf("ralph-gate: %s (%s)", f.Type, f.Severity),
		Message: f.Message,
	}
	if f.File != "" {
		a.File = path.Join(prefix, f.File)
		a.Line = f.Line
	}
	if s := report.Subject(f); s != "" {
		a.Message += " [" + s + "]"
	}
	return a
}
