package ghaction

import (
	"fmt"
	"io"

	"github.com/sethvargo/go-githubactions"
)

// Runner is the thin edge over go-githubactions: workflow-command
// annotations, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY. Outside a runner
// (GITHUB_ACTIONS is not "true") it writes plain lines and no files, so the
// command can be tried locally.
type Runner struct {
	a      *githubactions.Action
	w      io.Writer
	Active bool
}

// NewRunner returns the runner edge for getenv, writing commands to w.
func NewRunner(getenv func(string) string, w io.Writer) *Runner {
	return &Runner{
		a:      githubactions.New(githubactions.WithGetenv(getenv), githubactions.WithWriter(w)),
		w:      w,
		Active: getenv("GITHUB_ACTIONS") == "true",
	}
}

// Annotate writes one annotation.
func (r *Runner) Annotate(a Annotation) {
	if !r.Active {
		loc := a.File
		if a.Line > 0 {
			loc = fmt.Sprintf("%s:%d", a.File, a.Line)
		}
		fmt.Fprintf(r.w, "%s: %s: %s: %s\n", a.Level, loc, a.Title, a.Message)
		return
	}
	act := r.a.WithFieldsMap(a.Fields())
	if a.Level == LevelError {
		act.Errorf("%s", a.Message)
	} else {
		act.Warningf("%s", a.Message)
	}
}

// Output sets a step output.
func (r *Runner) Output(name, value string) {
	if r.Active {
		r.a.SetOutput(name, value)
	}
}

// Summary appends markdown to the job summary.
func (r *Runner) Summary(markdown string) {
	if r.Active {
		r.a.AddStepSummary(markdown)
	}
}

// Notice writes a notice (a plain line outside a runner).
func (r *Runner) Notice(msg string) {
	if r.Active {
		r.a.Noticef("%s", msg)
		return
	}
	fmt.Fprintf(r.w, "notice: %s\n", msg)
}
