package ghaction

import (
	"fmt"
	"io"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// SummaryOptions are what the job summary says beyond the report.
type SummaryOptions struct {
	// Approved is set when the approve label turned a block into a pass.
	Approved bool
	Label    string
	// Overflow are the findings GitHub's annotation limits left out.
	Overflow []gate.Finding
	// RangeFrom says where the range came from (the event, the inputs).
	RangeFrom string
	// Notes are the action's own notes (a missing token, a fetch).
	Notes []string
}

// CommitScore is the timeline's per-commit score: 100 minus 50 per critical,
// 25 per high, 10 per medium and 3 per low finding the commit introduced,
// floored at 0. It is read from the diff of each commit alone, not measured:
// the loop commands' quality score is the measured one.
func CommitScore(fs []gate.Finding, sha string) float64 {
	score := 100.0
	for _, f := range fs {
		if f.Commit != sha {
			continue
		}
		switch f.Severity {
		case gate.SeverityCritical:
			score -= 50
		case gate.SeverityHigh:
			score -= 25
		case gate.SeverityMedium:
			score -= 10
		case gate.SeverityLow:
			score -= 3
		}
	}
	if score < 0 {
		score = 0
	}
	return score
}

// WriteSummary writes the job summary: the verdict (and the approval), the
// net findings, the metrics, the timeline of the range's commits, the
// per-commit trajectory as a mermaid xychart, and what did not fit in the
// annotations.
func WriteSummary(w io.Writer, rep *gate.Report, opt SummaryOptions) error {
	var b strings.Builder
	verdict := strings.ToUpper(string(rep.Verdict))
	icon := map[gate.Verdict]string{gate.VerdictPass: "✅", gate.VerdictWarn: "⚠️", gate.VerdictBlock: "⛔"}[rep.Verdict]
	if opt.Approved {
		icon, verdict = "✅", "PASS (a block, approved by a human)"
	}
	fmt.Fprintf(&b, "## %s ralph-gate: %s\n\n", icon, verdict)
	fmt.Fprintf(&b, "Range `%s..%s` (%d commits", short(rep.Base), short(rep.Head), len(rep.Commits))
	if opt.RangeFrom != "" {
		fmt.Fprintf(&b, ", from %s", opt.RangeFrom)
	}
	fmt.Fprintf(&b, "); fail-on `%s`.\n\n", rep.FailOn)
	if opt.Approved {
		fmt.Fprintf(&b, "**Approved by label `%s`**: the gate found blocking regressions and a human approved the pull request, so this check passes.\n\n", opt.Label)
	}

	var net []gate.Finding
	for _, f := range rep.Findings {
		if f.Net {
			net = append(net, f)
		}
	}
	b.WriteString("### Findings\n\n")
	if len(net) == 0 {
		b.WriteString("No net findings.\n\n")
	} else {
		b.WriteString("| type | severity | file:line | test | commit |\n|---|---|---|---|---|\n")
		for _, f := range net {
			sev := f.Severity.String()
			if f.Suppressed != "" {
				sev += " (suppressed: " + cell(f.Suppressed) + ")"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", f.Type, sev, cell(where(f)), cell(subjectOf(f)), short(f.Commit))
		}
		b.WriteString("\n")
	}
	if rep.Metrics != nil && (rep.Metrics.Base != nil || rep.Metrics.Head != nil) {
		b.WriteString("### Metrics\n\n| metric | base | head | delta |\n|---|---|---|---|\n")
		for _, row := range metricRows(rep.Metrics) {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", row[0], row[1], row[2], row[3])
		}
		b.WriteString("\n")
	}
	if len(rep.Commits) > 0 {
		b.WriteString("### Iterations\n\n| # | commit | subject | findings introduced | score |\n|---|---|---|---|---|\n")
		var scores []string
		for i, c := range rep.Commits {
			s := CommitScore(rep.Findings, c.SHA)
			scores = append(scores, fmt.Sprintf("%.0f", s))
			fmt.Fprintf(&b, "| %d | `%s` | %s | %d | %.0f |\n", i+1, short(c.SHA), cell(c.Subject), c.Findings, s)
		}
		b.WriteString("\nScore per commit: 100 − 50 per critical, 25 per high, 10 per medium, 3 per low finding that commit introduced (from its diff alone).\n\n")
		b.WriteString("```mermaid\nxychart-beta\n    title \"Quality per iteration\"\n    x-axis [")
		for i := range rep.Commits {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%d", i+1)
		}
		b.WriteString("]\n    y-axis \"score\" 0 --> 100\n    line [" + strings.Join(scores, ", ") + "]\n```\n\n")
	}
	if len(opt.Overflow) > 0 {
		fmt.Fprintf(&b, "### Not annotated\n\nGitHub shows %d error and %d warning annotations per step; these %d findings did not fit:\n\n",
			MaxErrorAnnotations, MaxWarningAnnotations, len(opt.Overflow))
		for _, f := range opt.Overflow {
			loc := where(f)
			if s := subjectOf(f); s != "" {
				loc += " " + s
			}
			fmt.Fprintf(&b, "- %s (%s) %s: %s\n", f.Type, f.Severity, loc, f.Message)
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
			fmt.Fprintf(&b, "- %s\n", n)
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func where(f gate.Finding) string {
	if f.Line > 0 {
		return fmt.Sprintf("%s:%d", f.File, f.Line)
	}
	return f.File
}

func short(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return sha
}

// cell escapes a table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", "\\|")
	return strings.ReplaceAll(s, "\n", " ")
}

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
