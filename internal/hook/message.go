package hook

import (
	"fmt"
	"io"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// Checked is one target with the report its range produced (nil when the
// target was skipped or analyzed under another ref).
type Checked struct {
	Target Target
	Report *gate.Report
	// Command is the ralph-gate command that shows the full report
	// ("analyze" or "compare").
	Command string
}

// Bypass tells a person how to push anyway.
const Bypass = "to push anyway (you answer for it): git push --no-verify, or RALPH_GATE_SKIP=1 git push"

// maxListed bounds the findings listed per ref; the full report has them all.
const maxListed = 20

// WriteSummary writes what the hook checked and found, for git to show on
// the terminal: a line per ref, then each net finding (those that block
// first) with its severity, type, file:line, test and commit, and, when the
// push is refused, how to see the full report and how to push anyway. It
// returns the number of blocking findings.
func WriteSummary(w io.Writer, checked []Checked) int {
	blocking := 0
	var refuse []string
	for _, c := range checked {
		t := c.Target
		name := clean(t.Update.Name())
		switch {
		case t.Skip != "":
			fmt.Fprintf(w, "ralph-gate: %s: %s\n", name, clean(t.Skip))
			continue
		case t.SameAs != "":
			fmt.Fprintf(w, "ralph-gate: %s: the same commits as %s\n", name, clean(t.SameAs))
			continue
		case c.Report == nil:
			continue
		}
		rep := c.Report
		fmt.Fprintf(w, "ralph-gate: %s: %s %s..%s (base: %s): %s\n", name, plural(len(rep.Commits), "commit"),
			short(t.Base), short(t.Head), clean(t.BaseFrom), rep.Verdict)
		subjects := map[string]string{}
		for _, cm := range rep.Commits {
			subjects[cm.SHA] = cm.Subject
		}
		if n := writeFindings(w, rep.Findings, gate.FailOn(rep.FailOn), subjects); n > 0 {
			blocking += n
			refuse = append(refuse, fmt.Sprintf("ralph-gate %s %s %s", c.Command, short(t.Base), short(t.Head)))
		}
	}
	if blocking > 0 {
		failOn := "the fail-on severity"
		for _, c := range checked {
			if c.Report != nil {
				failOn = c.Report.FailOn.String()
				break
			}
		}
		fmt.Fprintf(w, "ralph-gate: push refused: %s at or above %s (fail_on in %s at the base, or --fail-on)\n",
			plural(blocking, "net finding"), failOn, ".ralph-gate.yml")
		fmt.Fprintf(w, "ralph-gate: the full report: %s\n", strings.Join(refuse, "; "))
		fmt.Fprintf(w, "ralph-gate: %s\n", Bypass)
	}
	return blocking
}

// writeFindings lists the net, unsuppressed findings, those that block at
// failOn first, at most maxListed of them, and returns how many block.
// subjects names the commits' subjects by sha.
func writeFindings(w io.Writer, findings []gate.Finding, failOn gate.FailOn, subjects map[string]string) int {
	var block, warn []gate.Finding
	for _, f := range findings {
		switch {
		case !f.Net || f.Suppressed != "":
		case failOn.Blocks(f.Severity):
			block = append(block, f)
		default:
			warn = append(warn, f)
		}
	}
	listed := 0
	for _, f := range append(block, warn...) {
		if listed == maxListed {
			fmt.Fprintf(w, "  ... and %d more\n", len(block)+len(warn)-listed)
			break
		}
		listed++
		writeFinding(w, f, subjects, !failOn.Blocks(f.Severity))
	}
	return len(block)
}

func writeFinding(w io.Writer, f gate.Finding, subjects map[string]string, below bool) {
	var b strings.Builder
	fmt.Fprintf(&b, "  %-8s %s", f.Severity, f.Type)
	if f.File != "" {
		b.WriteString(" " + clean(f.File))
		if f.Line > 0 {
			fmt.Fprintf(&b, ":%d", f.Line)
		}
	}
	if f.Test != "" {
		b.WriteString(" test " + clean(f.Test))
	} else if f.Symbol != "" {
		b.WriteString(" symbol " + clean(f.Symbol))
	}
	if f.Commit != "" {
		b.WriteString(" commit " + shortSHA(f.Commit))
		if s := subjects[f.Commit]; s != "" {
			if r := []rune(s); len(r) > 50 {
				s = string(r[:50]) + "..."
			}
			fmt.Fprintf(&b, " %q", s)
		}
	}
	if below {
		b.WriteString(" (below fail-on: does not block)")
	}
	fmt.Fprintln(w, b.String())
	if f.Message != "" {
		fmt.Fprintf(w, "           %s\n", clean(f.Message))
	}
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func shortSHA(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

// clean makes s safe for one terminal line: control characters (escape
// sequences, newlines) from file names, test names or messages become spaces.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return ' '
		}
		return r
	}, s)
}
