package ghaction

import (
	"crypto/rand"
	"encoding/hex"
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
	getenv func(string) string
	w      io.Writer
	Active bool
}

// NewRunner returns the runner edge for getenv, writing commands to w.
func NewRunner(getenv func(string) string, w io.Writer) *Runner {
	return &Runner{
		a:      githubactions.New(githubactions.WithGetenv(getenv), githubactions.WithWriter(w)),
		getenv: getenv,
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

// Error writes an error annotation without a location: the one line of a
// failed run, so it shows on the check as well as in the log.
func (r *Runner) Error(msg string) {
	if r.Active {
		r.a.WithFieldsMap(map[string]string{"title": "ralph-gate"}).Errorf("%s", msg)
	}
}

// Output sets a step output in GITHUB_OUTPUT.
func (r *Runner) Output(name, value string) error {
	if !r.Active {
		return nil
	}
	return r.fileCommand("GITHUB_OUTPUT", func() { r.a.SetOutput(name, value) })
}

// Summary appends markdown to GITHUB_STEP_SUMMARY.
func (r *Runner) Summary(markdown string) error {
	if !r.Active {
		return nil
	}
	return r.fileCommand("GITHUB_STEP_SUMMARY", func() { r.a.AddStepSummary(markdown) })
}

// fileCommand runs a go-githubactions call that appends to the file named by
// the variable; the library panics when it cannot, which becomes an error.
func (r *Runner) fileCommand(variable string, call func()) (err error) {
	if r.getenv(variable) == "" {
		return fmt.Errorf("%s is not set: the runner did not say where to write", variable)
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("write %s %s: %v", variable, r.getenv(variable), p)
		}
	}()
	call()
	return nil
}

// Notice writes a notice (a plain line outside a runner).
func (r *Runner) Notice(msg string) {
	if r.Active {
		r.a.Noticef("%s", msg)
		return
	}
	fmt.Fprintf(r.w, "notice: %s\n", msg)
}

// Verbatim runs write with workflow commands off: text taken from the
// agent's commits (subjects, test names) reaches the log, and a line of it
// that looks like "::add-mask::" or "::error::" must stay text. The runner
// resumes at a random token nobody could have put in the text.
func (r *Runner) Verbatim(write func()) {
	if !r.Active {
		write()
		return
	}
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	token := "ralph-gate-" + hex.EncodeToString(b)
	r.a.IssueCommand(&githubactions.Command{Name: "stop-commands", Message: token})
	write()
	r.a.IssueCommand(&githubactions.Command{Name: token})
}
