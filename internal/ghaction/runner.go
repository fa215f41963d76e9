package ghaction

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/sethvargo/go-githubactions"

	"github.com/ralph-gate/ralph-gate/internal/gate"
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

// Output sets a step output in GITHUB_OUTPUT, as a name<<DELIMITER block
// whose delimiter is random: go-githubactions (like the toolkit) uses a fixed
// one, and a value, or a line the code under test managed to write before
// it, could then close the block early and set outputs of its own.
func (r *Runner) Output(name, value string) error {
	if !r.Active {
		return nil
	}
	path := r.getenv("GITHUB_OUTPUT")
	if path == "" {
		return fmt.Errorf("GITHUB_OUTPUT is not set: the runner did not say where to write")
	}
	if strings.ContainsAny(name, "\r\n=<") || name == "" {
		return fmt.Errorf("output name %q cannot be written to GITHUB_OUTPUT", name)
	}
	delim := ""
	for delim == "" || strings.Contains(value, delim) {
		b := make([]byte, 16)
		if _, err := rand.Read(b); err != nil {
			return fmt.Errorf("write GITHUB_OUTPUT: %w", err)
		}
		delim = "ralph_gate_" + hex.EncodeToString(b)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY|os.O_CREATE|noFollow, 0o644)
	if err != nil {
		return fmt.Errorf("write GITHUB_OUTPUT %s: %w", path, err)
	}
	_, werr := fmt.Fprintf(f, "%s<<%s\n%s\n%s\n", name, delim, value, delim)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return fmt.Errorf("write GITHUB_OUTPUT %s: %w", path, werr)
	}
	return nil
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

// ownFiles are the runner's file commands of this step. The step runs
// ralph-gate alone, so anything in them before ralph-gate writes was written
// by the code under test: outputs (verdict=pass), environment variables and
// PATH entries for every later step (LD_PRELOAD), a heredoc left open to
// swallow the real verdict, or summary text.
var ownFiles = []string{"GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STATE", "GITHUB_STEP_SUMMARY"}

// Written is a runner file the code under test wrote to.
type Written struct {
	Variable string
	Bytes    int64
}

// Finding is what the write is: an unverified, high finding naming the
// variable, since whatever the code put there would have reached later
// steps (outputs, environment, PATH) or hidden the verdict.
func (w Written) Finding() gate.Finding {
	what := fmt.Sprintf("wrote %d bytes to it", w.Bytes)
	if w.Bytes < 0 {
		what = "replaced it with something that is not a file"
	}
	r := gate.RuleRunnerFileWritten
	return gate.Finding{
		ID: "runner-file-" + strings.ToLower(w.Variable), Type: r.Type, Severity: gate.SeverityHigh, Net: true,
		Rule: r.ID, File: w.Variable, Evidence: gate.EvidenceMeasured,
		Message: fmt.Sprintf("the code run by the gate %s (%s): a step output, environment or PATH for later steps, or text to hide the verdict; ralph-gate emptied it, so none of it reaches the workflow", w.Variable, what),
	}
}

// Claim empties this step's runner files before ralph-gate writes its own
// results, and reports those that were not empty: whatever was in them came
// from the code under test, and none of it reaches the workflow.
func (r *Runner) Claim() ([]Written, error) {
	if !r.Active {
		return nil, nil
	}
	var out []Written
	for _, v := range ownFiles {
		path := r.getenv(v)
		if path == "" {
			continue
		}
		fi, err := os.Lstat(path)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return out, fmt.Errorf("check %s: %w", v, err)
		}
		if !fi.Mode().IsRegular() {
			// Replaced by a link or something else: put a plain file back.
			if err := os.Remove(path); err != nil {
				return out, fmt.Errorf("replace %s %s: %w", v, path, err)
			}
			out = append(out, Written{Variable: v, Bytes: -1})
			continue
		}
		if fi.Size() == 0 {
			continue
		}
		if err := os.Truncate(path, 0); err != nil {
			return out, fmt.Errorf("empty %s %s: %w", v, path, err)
		}
		out = append(out, Written{Variable: v, Bytes: fi.Size()})
	}
	return out, nil
}
