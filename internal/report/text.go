package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// ANSI colours of the text format.
const (
	ansiRed    = "\x1b[31m"
	ansiYellow = "\x1b[33m"
	ansiGreen  = "\x1b[32m"
	ansiBold   = "\x1b[1m"
	ansiReset  = "\x1b[0m"
)

// textRenderer writes the terminal format. Every string taken from the report
// goes through cleanLine, so with colour off the output holds no escape byte even
// when a message carries one.
type textRenderer struct {
	*errWriter
	v   *view
	opt Options
}

func renderText(w io.Writer, rep *gate.Report, opt Options) error {
	t := &textRenderer{errWriter: &errWriter{w: w}, v: newView(rep), opt: opt}
	t.header()
	t.commits()
	t.netFindings()
	t.suppressed()
	t.notes()
	if l := tamperLine(t.v.rep.TamperCheck); l != "" {
		t.printf("\n%s\n", l)
	}
	t.witness()
	t.mutation()
	t.metrics()
	t.printf("\n%s\n", t.paint(verdictColour(t.v.verdict), t.v.verdictLine()))
	return t.err
}

// witness prints the witness's line and each test's outcome.
func (t *textRenderer) witness() {
	w := t.v.rep.Witness
	l := witnessLine(w)
	if l == "" {
		return
	}
	t.printf("\n%s\n", l)
	for i, wt := range w.Tests {
		if i == maxListed {
			t.printf("  ...and %d more (the json format lists them all)\n", len(w.Tests)-maxListed)
			break
		}
		line := fmt.Sprintf("  %-14s %s", wt.Witness, cleanLine(wt.Test))
		if wt.Detail != "" {
			line += ": " + truncate(cleanLine(wt.Detail), 160)
		}
		t.printf("%s\n", line)
	}
}

// mutation prints the mutation's line and the mutants that survived (the
// killed ones are counted; the json format lists them all).
func (t *textRenderer) mutation() {
	m := t.v.rep.Mutation
	l := mutationLine(m)
	if l == "" {
		return
	}
	t.printf("\n%s\n", l)
	n := 0
	for _, r := range m.Mutants {
		if r.Outcome != gate.MutantSurvived {
			continue
		}
		if n == maxListed {
			t.printf("  ...and %d more (the json format lists them all)\n", m.Survived-maxListed)
			break
		}
		n++
		t.printf("  survived  %s:%d  %s  →  %s\n", cleanLine(r.File), r.Line, truncate(cleanLine(r.Original), 70), truncate(cleanLine(r.Mutated), 70))
	}
}

func (t *textRenderer) paint(colour, s string) string {
	if !t.opt.Color || colour == "" {
		return s
	}
	return colour + s + ansiReset
}

func severityColour(s gate.Severity) string {
	switch {
	case s >= gate.SeverityHigh:
		return ansiRed
	case s == gate.SeverityMedium:
		return ansiYellow
	}
	return ""
}

func verdictColour(v gate.Verdict) string {
	switch v {
	case gate.VerdictBlock:
		return ansiRed
	case gate.VerdictWarn:
		return ansiYellow
	case gate.VerdictPass:
		return ansiGreen
	}
	return ""
}

func (t *textRenderer) header() {
	rep := t.v.rep
	var rng string
	switch {
	case rep.Base != "" && rep.Head != "":
		rng = shortSHA(rep.Base) + ".." + shortSHA(rep.Head)
	case rep.Head != "":
		rng = ".." + shortSHA(rep.Head)
	case len(rep.Commits) == 0:
		t.printf("%s no commit range\n", t.paint(ansiBold, "ralph-gate:"))
		return
	default:
		rng = "no range"
	}
	t.printf("%s %s, %s\n", t.paint(ansiBold, "ralph-gate:"), rng, plural(len(rep.Commits), "commit"))
}

// maxCleanCommits is the longest range whose commits without findings are
// all listed in text.
const maxCleanCommits = 10

func (t *textRenderer) commits() {
	rep := t.v.rep
	if len(rep.Commits) > 0 {
		t.write("\nCommits:\n")
	}
	clean := 0
	for i, c := range rep.Commits {
		// A long range lists only the commits that introduced something;
		// --verbose lists every one.
		if len(t.v.byCommit[i]) == 0 && c.Findings == 0 && !t.opt.Verbose && len(rep.Commits) > maxCleanCommits {
			clean++
			continue
		}
		t.printf("  %s %s\n", shortSHA(c.SHA), cleanLine(c.Subject))
		switch {
		case len(t.v.byCommit[i]) > 0:
		case c.Findings > 0:
			t.printf("      %s\n", plural(c.Findings, "finding"))
		default:
			t.write("      no findings\n")
		}
		for _, f := range t.v.byCommit[i] {
			t.commitFinding(f)
		}
	}
	if clean > 0 {
		t.printf("  (%s without findings not listed; --verbose lists them)\n", plural(clean, "commit"))
	}
	// Findings of no listed commit are shown here too when they would not be
	// shown anywhere else (transient ones), or when there is a timeline to
	// complete.
	show := len(rep.Commits) > 0
	for _, f := range t.v.unattributed {
		show = show || !f.Net
	}
	if !show || len(t.v.unattributed) == 0 {
		return
	}
	if len(rep.Commits) == 0 {
		t.write("\n")
	}
	t.write("  (not from a listed commit)\n")
	for _, f := range t.v.unattributed {
		t.commitFinding(f)
	}
}

func (t *textRenderer) commitFinding(f gate.Finding) {
	var status string
	switch {
	case !f.Net:
		status = " (fixed later, not blocking)"
	case f.Suppressed != "":
		status = " (suppressed: " + cleanLine(f.Suppressed) + ")"
	}
	t.printf("      %s %s%s: %s%s\n", t.paint(severityColour(f.Severity), f.Severity.String()),
		cleanLine(string(f.Type)), t.where(f), cleanLine(f.Message), status)
}

// where is " at file:line (Test)" or the parts of it the finding has.
func (t *textRenderer) where(f gate.Finding) string {
	var b strings.Builder
	if loc := location(f, t.opt.RepoRoot); loc != "" {
		b.WriteString(" at " + cleanLine(loc))
	}
	if s := subject(f); s != "" {
		b.WriteString(" (" + cleanLine(s) + ")")
	}
	return b.String()
}

func (t *textRenderer) netFindings() {
	net := t.v.net
	if len(net) == 0 {
		return
	}
	t.printf("\nNet findings (%d):\n", len(net))
	for i, f := range net {
		if i == 0 || net[i-1].Severity != f.Severity {
			t.printf("  %s\n", t.paint(severityColour(f.Severity), strings.ToUpper(f.Severity.String())))
		}
		t.printf("    %s%s\n", cleanLine(string(f.Type)), t.where(f))
		t.printf("        %s\n", cleanLine(f.Message))
		if c := shortSHA(f.Commit); c != "" {
			t.printf("        introduced in %s\n", c)
		}
		t.details(f)
	}
}

// details adds what only a verbose reader wants: id, rule, evidence, values.
func (t *textRenderer) details(f gate.Finding) {
	if !t.opt.Verbose {
		return
	}
	parts := []string{"id " + cleanLine(f.ID)}
	if f.Rule != "" {
		parts = append(parts, "rule "+cleanLine(f.Rule))
	}
	if f.Evidence != "" {
		parts = append(parts, "evidence "+cleanLine(string(f.Evidence)))
	}
	if f.BaselineValue != nil || f.CurrentValue != nil {
		parts = append(parts, "baseline "+number(f.BaselineValue)+" -> current "+number(f.CurrentValue))
	}
	t.printf("        %s\n", strings.Join(parts, ", "))
}

func number(v *float64) string {
	if v == nil {
		return "n/a"
	}
	return strconv.FormatFloat(*v, 'f', -1, 64)
}

func (t *textRenderer) suppressed() {
	if len(t.v.suppressed) == 0 {
		return
	}
	t.printf("\nSuppressed, not blocking (%d):\n", len(t.v.suppressed))
	for _, f := range t.v.suppressed {
		t.printf("    %s %s%s: %s\n", f.Severity, cleanLine(string(f.Type)), t.where(f), cleanLine(f.Message))
		t.printf("        suppressed: %s\n", cleanLine(f.Suppressed))
		t.details(f)
	}
}

func (t *textRenderer) notes() {
	notes := t.v.rep.Notes
	if len(notes) == 0 {
		return
	}
	t.write("\nNotes:\n")
	for _, n := range notes {
		if p := repoPath(n.File, t.opt.RepoRoot); p != "" {
			t.printf("  %s: %s\n", cleanLine(p), cleanLine(n.Message))
			continue
		}
		t.printf("  %s\n", cleanLine(n.Message))
	}
}

func (t *textRenderer) metrics() {
	if t.v.rep.Metrics == nil {
		return
	}
	rows := metricRows(t.v.rep.Metrics)
	table := [][]string{{"metric", "base", "head", "delta"}}
	for _, r := range rows {
		table = append(table, []string{r.name, r.format(r.base), r.format(r.head), r.formatDelta()})
	}
	widths := make([]int, 4)
	for _, row := range table {
		for i, cell := range row {
			widths[i] = max(widths[i], len(cell))
		}
	}
	t.write("\nMetrics:\n")
	for i, row := range table {
		var b strings.Builder
		b.WriteString(" ")
		for j, cell := range row {
			fmt.Fprintf(&b, " %-*s", widths[j], cell)
		}
		line := strings.TrimRight(b.String(), " ")
		if i > 0 && rows[i-1].regressed() {
			line = b.String() + "  " + t.paint(ansiRed, "regression")
		}
		t.write(line + "\n")
	}
	if cl := t.v.rep.ChangedLineCoverage; cl != nil {
		t.printf("\n%s\n", changedLinesLine(cl))
		listed := 0
		for _, f := range cl.Files {
			if len(f.Uncovered) == 0 {
				continue
			}
			if listed == maxListed {
				t.printf("  and more files (the JSON report lists them all)\n")
				break
			}
			listed++
			t.printf("  %s: %.2f%% (%d of %d), not run: %s\n", cleanLine(f.File), f.Percentage, f.Covered, f.Total, spanList(f.Uncovered, 10))
		}
	}
	if failing := failingAtHead(t.v.rep.Metrics); len(failing) > 0 {
		t.printf("\nFailing at HEAD (%d):\n", len(failing))
		for i, id := range failing {
			if i == maxListed {
				t.printf("  and %d more (the JSON report lists them all)\n", len(failing)-maxListed)
				break
			}
			t.printf("  %s\n", cleanLine(id))
		}
	}
}
