package ghaction

import (
	"fmt"
	"io"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/report"
)

// SummaryOptions are what the job summary says beyond the report.
type SummaryOptions struct {
	// Approved is set when the approve label turned a block into a pass.
	Approved bool
	Label    string
	// ApprovedBy is who added the label, when this run's event says so (a
	// labeled event); "" otherwise.
	ApprovedBy string
	// Overflow are the findings GitHub's annotation limits left out.
	Overflow []gate.Finding
	// RangeFrom says where the range came from (the event, the inputs).
	RangeFrom string
	// Notes are the action's own notes (a missing token, a fetch).
	Notes []string
}

// ScoreFormula says in the summary, under the chart, what the score is: the
// loop's validation score (gate.ValidationScore), one model for both.
const ScoreFormula = "Score per commit = " + gate.ValidationFormula + ", over the findings that commit " +
	"introduced (one fixed by a later commit still counts against the commit that made it; sanctioned exceptions " +
	"and waivers of the config do not count): the validation score a loop gives an iteration. It rates each " +
	"commit's own change by what the analysis found in it: it is not a measured quality score (the " +
	"metrics table has the measurements, and a measured finding that no commit is blamed for counts in no score)."

// Summary limits: a step summary holds at most 1 MiB, and a table of
// thousands of rows helps nobody; the JSON report has everything.
const (
	maxSummaryFindings = 100
	maxSummaryCommits  = 100
)

// CommitScore is the trajectory's score of the commit sha (see ScoreFormula).
func CommitScore(fs []gate.Finding, sha string) float64 {
	var mine []gate.Finding
	for _, f := range fs {
		if f.Commit == sha && f.Suppressed == "" {
			mine = append(mine, f)
		}
	}
	score, _ := gate.ValidationScore(mine)
	return score
}

// WriteSummary writes the job summary: the verdict (and the approval), the
// net findings, the metrics, the timeline of the range's commits with the
// per-commit trajectory as a mermaid xychart, what did not fit in the
// annotations, and the notes.
func WriteSummary(w io.Writer, rep *gate.Report, opt SummaryOptions) error {
	var b strings.Builder
	writeHeader(&b, rep, opt)
	writeFindings(&b, rep)
	if rep.Metrics != nil && (rep.Metrics.Base != nil || rep.Metrics.Head != nil) {
		b.WriteString("### Metrics\n\n| metric | base | head | delta |\n|---|---|---|---|\n")
		for _, row := range metricRows(rep.Metrics) {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", row[0], row[1], row[2], row[3])
		}
		b.WriteString("\n")
	}
	writeIterations(&b, rep)
	if len(opt.Overflow) > 0 {
		fmt.Fprintf(&b, "### Not annotated\n\nGitHub shows %d error and %d warning annotations per step; these %d findings did not fit:\n\n",
			MaxErrorAnnotations, MaxWarningAnnotations, len(opt.Overflow))
		for i, f := range opt.Overflow {
			if i == maxSummaryFindings {
				fmt.Fprintf(&b, "- …and %d more (the JSON report lists them all)\n", len(opt.Overflow)-i)
				break
			}
			loc := report.Location(f, "")
			if s := report.Subject(f); s != "" {
				loc += " " + s
			}
			fmt.Fprintf(&b, "- %s (%s) %s: %s\n", f.Type, f.Severity, cell(loc), cell(report.Truncate(f.Message, 300)))
		}
		b.WriteString("\n")
	}
	notes := append([]string(nil), opt.Notes...)
	for _, n := range rep.Notes {
		if n.File != "" {
			notes = append(notes, n.File+": "+n.Message)
		} else {
			notes = append(notes, n.Message)
		}
	}
	if len(notes) > 0 {
		b.WriteString("### Notes\n\n")
		for _, n := range notes {
			fmt.Fprintf(&b, "- %s\n", cell(n))
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeHeader(b *strings.Builder, rep *gate.Report, opt SummaryOptions) {
	verdict := strings.ToUpper(string(rep.Verdict))
	icon := map[gate.Verdict]string{gate.VerdictPass: "✅", gate.VerdictWarn: "⚠️", gate.VerdictBlock: "⛔"}[rep.Verdict]
	if opt.Approved {
		icon, verdict = "✅", "PASS (a block, approved by a human)"
	}
	fmt.Fprintf(b, "## %s ralph-gate: %s\n\n", icon, verdict)
	fmt.Fprintf(b, "Range `%s..%s` (%s", short(rep.Base), short(rep.Head), plural(len(rep.Commits), "commit"))
	if opt.RangeFrom != "" {
		fmt.Fprintf(b, ", from %s", opt.RangeFrom)
	}
	fmt.Fprintf(b, "); fail-on `%s`.\n\n", rep.FailOn)
	if opt.Approved {
		fmt.Fprintf(b, "**Approved by label `%s`**", strings.NewReplacer("`", "", "\n", " ", "\r", " ").Replace(opt.Label))
		if opt.ApprovedBy != "" {
			fmt.Fprintf(b, " (added by %s)", cell(opt.ApprovedBy))
		}
		b.WriteString(": the gate found blocking regressions and a human approved the pull request, so this check passes. The findings below stand as reported.\n\n")
	}
}

func writeFindings(b *strings.Builder, rep *gate.Report) {
	var net []gate.Finding
	for _, f := range rep.Findings {
		if f.Net {
			net = append(net, f)
		}
	}
	b.WriteString("### Findings\n\n")
	if len(net) == 0 {
		b.WriteString("No net findings.\n\n")
		return
	}
	b.WriteString("| type | severity | file:line | test | commit | message |\n|---|---|---|---|---|---|\n")
	for i, f := range net {
		if i == maxSummaryFindings {
			fmt.Fprintf(b, "\n…and %d more net findings (the JSON report lists them all).\n", len(net)-i)
			break
		}
		sev := f.Severity.String()
		if f.Suppressed != "" {
			sev += " (suppressed: " + cell(f.Suppressed) + ")"
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s |\n", f.Type, sev, cell(report.Location(f, "")), cell(report.Subject(f)), short(f.Commit), cell(report.Truncate(f.Message, 200)))
	}
	b.WriteString("\n")
}

// writeIterations writes the per-commit timeline and the trajectory chart; a
// long range shows its last maxSummaryCommits commits.
func writeIterations(b *strings.Builder, rep *gate.Report) {
	if len(rep.Commits) == 0 {
		return
	}
	first := max(0, len(rep.Commits)-maxSummaryCommits)
	b.WriteString("### Iterations\n\n")
	if first > 0 {
		fmt.Fprintf(b, "The last %d of %d commits.\n\n", maxSummaryCommits, len(rep.Commits))
	}
	b.WriteString("| # | commit | subject | findings introduced | score |\n|---|---|---|---|---|\n")
	var xs, scores []string
	for i := first; i < len(rep.Commits); i++ {
		c := rep.Commits[i]
		s := CommitScore(rep.Findings, c.SHA)
		xs = append(xs, fmt.Sprint(i+1))
		scores = append(scores, fmt.Sprintf("%.0f", s))
		fmt.Fprintf(b, "| %d | `%s` | %s | %d | %.0f |\n", i+1, short(c.SHA), cell(report.Truncate(c.Subject, 120)), c.Findings, s)
	}
	b.WriteString("\n```mermaid\nxychart-beta\n    title \"Score per commit (from the findings each introduced)\"\n")
	fmt.Fprintf(b, "    x-axis \"commit #\" [%s]\n", strings.Join(xs, ", "))
	b.WriteString("    y-axis \"score\" 0 --> 100\n    line [" + strings.Join(scores, ", ") + "]\n```\n\n")
	b.WriteString(ScoreFormula + "\n\n")
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// truncate cuts s to limit characters, marking the cut.

func short(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return sha
}

// cell makes text from the report (the agent's commit subjects and test
// names among it) safe in a table cell or a list item, with the escaper
// every renderer uses (report.MarkdownText): one line, markdown's own
// characters ([, ], |, `, *, ...) escaped, no HTML, no @mention.
func cell(s string) string { return report.MarkdownText(s, 1<<20) }

func metricRows(mp *gate.MetricsPair) [][4]string {
	type metric struct {
		name string
		get  func(*gate.Metrics) *float64
	}
	i := func(f func(*gate.Metrics) *int) func(*gate.Metrics) *float64 {
		return func(m *gate.Metrics) *float64 {
			if m == nil {
				return nil
			}
			if p := f(m); p != nil {
				v := float64(*p)
				return &v
			}
			return nil
		}
	}
	metrics := []metric{
		{"tests", i(func(m *gate.Metrics) *int { return m.TestCount })},
		{"coverage %", func(m *gate.Metrics) *float64 {
			if m == nil {
				return nil
			}
			return m.CoveragePercentage
		}},
		{"branch coverage %", func(m *gate.Metrics) *float64 {
			if m == nil {
				return nil
			}
			return m.BranchCoveragePercentage
		}},
		{"type errors", i(func(m *gate.Metrics) *int { return m.TypescriptErrors })},
		{"lint errors", i(func(m *gate.Metrics) *int { return m.LintErrors })},
		{"files", i(func(m *gate.Metrics) *int { return m.FileCount })},
		{"lines of code", i(func(m *gate.Metrics) *int { return m.LinesOfCode })},
		{"complexity", i(func(m *gate.Metrics) *int { return m.Complexity })},
	}
	var rows [][4]string
	for _, m := range metrics {
		b, h := m.get(mp.Base), m.get(mp.Head)
		if b == nil && h == nil {
			continue
		}
		d := ""
		if b != nil && h != nil {
			d = fmt.Sprintf("%+g", round2(*h-*b))
		}
		rows = append(rows, [4]string{m.name, num(b), num(h), d})
	}
	return rows
}

func num(v *float64) string {
	if v == nil {
		return "not measured"
	}
	return fmt.Sprintf("%g", round2(*v))
}

func round2(v float64) float64 { return float64(int64(v*100+0.5*sign(v))) / 100 }

func sign(v float64) float64 {
	if v < 0 {
		return -1
	}
	return 1
}
