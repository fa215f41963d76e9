package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// maxCommentBytes is GitHub's limit on a comment's body (65536 characters); the
// markdown format counts bytes, which are never fewer than characters.
const maxCommentBytes = 65536

// Cell limits, in characters, so one huge message cannot eat the whole comment.
const (
	maxMessageRunes = 400
	maxCellRunes    = 160
)

// commentMarker lets the GitHub Action find and update its own comment.
const commentMarker = "<!-- ralph-gate-report -->\n"

// mdSection is a part of the comment whose rows may be cut to fit the limit.
type mdSection struct {
	head string   // title and table header, written when the section has rows
	rows []string // one line each, newline included
	noun string   // "net findings", for the "and N more" line
	tail string   // written after the rows (and the "and N more" line)
	keep int      // rows that fit, set by fit
}

func (s *mdSection) size() int {
	n := 0
	for _, r := range s.rows {
		n += len(r)
	}
	return n
}

func (s *mdSection) write(b *strings.Builder) {
	if len(s.rows) == 0 {
		return
	}
	b.WriteString(s.head)
	for _, r := range s.rows[:s.keep] {
		b.WriteString(r)
	}
	if more := len(s.rows) - s.keep; more > 0 {
		fmt.Fprintf(b, "\n_…and %d more %s (the json format lists them all)._\n", more, s.noun)
	}
	b.WriteString(s.tail)
}

// moreLineBytes bounds the size of the "and N more" line.
const moreLineBytes = 96

func renderMarkdown(w io.Writer, rep *gate.Report, opt Options) error {
	v := newView(rep)
	m := &mdRenderer{v: v, opt: opt}
	var fixed strings.Builder
	fixed.WriteString(commentMarker)
	fmt.Fprintf(&fixed, "## ralph-gate: %s\n\n%s\n", mdText(v.verdictLine(), maxCellRunes*2), m.summary())
	sections := []*mdSection{m.netSection(), m.nonBlockingSection(), m.witnessSection(), m.mutationSection(), m.timelineSection(), m.notesSection()}
	metrics := m.metricsTable()
	footer := fmt.Sprintf("\n<sub>%s %s</sub>\n", toolName, mdText(rep.Tool.Version, 40))

	budget := maxCommentBytes - fixed.Len() - len(metrics) - len(footer)
	for _, s := range sections {
		if len(s.rows) > 0 {
			budget -= len(s.head) + len(s.tail) + moreLineBytes
		}
	}
	fit(sections, budget)

	var b strings.Builder
	b.WriteString(fixed.String())
	for _, s := range sections {
		s.write(&b)
	}
	b.WriteString(metrics)
	b.WriteString(footer)
	_, err := io.WriteString(w, b.String())
	return err
}

// fit decides how many rows of each section to keep so that all rows together
// take at most budget bytes. Sections that need less than an equal share keep
// everything; the others split what is left equally (water-filling), so a long
// timeline cannot crowd out the net findings, nor the other way round.
func fit(sections []*mdSection, budget int) {
	order := slices.Clone(sections)
	slices.SortStableFunc(order, func(a, b *mdSection) int { return a.size() - b.size() })
	left := max(budget, 0)
	for i, s := range order {
		share := left / (len(order) - i)
		used := 0
		s.keep = 0
		for _, r := range s.rows {
			if used+len(r) > share {
				break
			}
			used += len(r)
			s.keep++
		}
		left -= used
	}
}

type mdRenderer struct {
	v   *view
	opt Options
}

func (m *mdRenderer) summary() string {
	v, rep := m.v, m.v.rep
	var b strings.Builder
	if rep.Base != "" && rep.Head != "" {
		fmt.Fprintf(&b, "Range %s..%s (%s): ", codeSpan(shortSHA(rep.Base)), codeSpan(shortSHA(rep.Head)), plural(len(rep.Commits), "commit"))
	}
	switch {
	case len(rep.Findings) == 0:
		b.WriteString("no findings.")
	case len(v.net) == 0:
		b.WriteString("no net findings")
	default:
		fmt.Fprintf(&b, "%s (%s)", plural(len(v.net), "net finding"), severityCounts(v.net))
		if g := gate.Severity(v.failOn); g != gate.SeverityNone {
			fmt.Fprintf(&b, ", %d at or above %s", v.blocking, g)
		}
	}
	if len(rep.Findings) > 0 {
		if nb := v.nonBlockingSummary(); nb != "" {
			b.WriteString("; " + nb + " (not blocking)")
		}
		b.WriteString(".")
	}
	return b.String()
}

// locationCell is a finding's location as code, linked to its line when
// the options give a BlobURL.
func (m *mdRenderer) locationCell(f gate.Finding) string {
	cell := codeSpan(location(f, m.opt.RepoRoot))
	p := repoPath(f.File, m.opt.RepoRoot)
	if cell == "" || m.opt.BlobURL == "" || p == "" {
		return cell
	}
	u := m.opt.BlobURL + linkPath(p)
	if f.Line > 0 {
		u += fmt.Sprintf("#L%d", f.Line)
	}
	return "[" + cell + "](" + u + ")"
}

// linkPath percent-encodes a relative slash path for a markdown link's
// destination: everything but unreserved characters and "/".
func linkPath(p string) string { return percentEncode(p, "-._~/") }

const findingsHeader = "| Severity | Type | Location | Test/Symbol | Commit | Message |\n|---|---|---|---|---|---|\n"

func (m *mdRenderer) findingRow(f gate.Finding, status string) string {
	cells := []string{
		"**" + f.Severity.String() + "**",
		codeSpan(string(f.Type)),
		cmpOr(m.locationCell(f), "_repository_"),
		codeSpan(subject(f)),
		codeSpan(shortSHA(f.Commit)),
		mdText(f.Message, maxMessageRunes),
	}
	if status != "" {
		cells = append([]string{status}, cells...)
	}
	return "| " + strings.Join(cells, " | ") + " |\n"
}

func (m *mdRenderer) netSection() *mdSection {
	s := &mdSection{head: "\n### Net findings\n\n" + findingsHeader, noun: "net findings"}
	for _, f := range m.v.net {
		s.rows = append(s.rows, m.findingRow(f, ""))
	}
	return s
}

// nonBlockingSection lists, collapsed, what is reported but cannot block:
// findings fixed later in the range and sanctioned exceptions.
func (m *mdRenderer) nonBlockingSection() *mdSection {
	v := m.v
	var what []string
	if n := len(v.transient); n > 0 {
		what = append(what, plural(n, "transient finding")+" (fixed later)")
	}
	if n := len(v.suppressed); n > 0 {
		what = append(what, plural(n, "suppressed finding"))
	}
	s := &mdSection{
		head: "\n<details>\n<summary>" + strings.Join(what, " and ") + ", not blocking</summary>\n\n" +
			"| Status | Severity | Type | Location | Test/Symbol | Commit | Message |\n|---|---|---|---|---|---|---|\n",
		noun: "findings",
		tail: "\n</details>\n",
	}
	for _, f := range v.transient {
		status := "fixed later"
		if f.Suppressed != "" {
			status = "fixed later; suppressed: " + mdText(f.Suppressed, maxCellRunes)
		}
		s.rows = append(s.rows, m.findingRow(f, status))
	}
	for _, f := range v.suppressed {
		s.rows = append(s.rows, m.findingRow(f, "suppressed: "+mdText(f.Suppressed, maxCellRunes)))
	}
	return s
}

func (m *mdRenderer) timelineSection() *mdSection {
	rep := m.v.rep
	s := &mdSection{head: "\n### Commits\n\n| Commit | Subject | Findings introduced |\n|---|---|---|\n", noun: "commits"}
	for i, c := range rep.Commits {
		s.rows = append(s.rows, fmt.Sprintf("| %s | %s | %s |\n",
			codeSpan(shortSHA(c.SHA)), mdText(c.Subject, maxCellRunes), introduced(c, m.v.byCommit[i])))
	}
	return s
}

// introduced says what a commit brought in: "none", or each finding's severity
// and type, the ones fixed later marked so.
func introduced(c gate.Commit, found []gate.Finding) string {
	if len(found) == 0 {
		if c.Findings > 0 {
			return plural(c.Findings, "finding")
		}
		return "none"
	}
	const maxListed = 6
	var parts []string
	for i, f := range found {
		if i == maxListed {
			parts = append(parts, fmt.Sprintf("and %d more", len(found)-maxListed))
			break
		}
		p := f.Severity.String() + " " + codeSpan(string(f.Type))
		if !f.Net {
			p += " (fixed later)"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ", ")
}

// witnessSection is the witness's table: each new or edited test and what
// BASE's code made of it.
func (m *mdRenderer) witnessSection() *mdSection {
	w := m.v.rep.Witness
	s := &mdSection{head: "\n### Witness\n\n" + mdText(witnessLine(w), maxMessageRunes) + "\n\n| Test | Witness | On BASE's code |\n|---|---|---|\n", noun: "tests"}
	if w == nil {
		return s
	}
	for _, t := range w.Tests {
		s.rows = append(s.rows, fmt.Sprintf("| %s | %s | %s |\n", codeSpan(t.Test), t.Witness, mdText(t.Detail, maxCellRunes)))
	}
	return s
}

// mutationSection is the mutation's table: each mutant that survived, then
// the others, with what the tests made of it. Empty when mutation was not
// asked for.
func (m *mdRenderer) mutationSection() *mdSection {
	mu := m.v.rep.Mutation
	if mu == nil {
		return &mdSection{noun: "mutants"}
	}
	s := &mdSection{head: "\n### Mutation\n\n" + mdText(mutationLine(mu), maxMessageRunes) + "\n\n| Line | Mutant | Outcome | Detail |\n|---|---|---|---|\n", noun: "mutants"}
	for _, want := range []bool{true, false} {
		for _, r := range mu.Mutants {
			if (r.Outcome == gate.MutantSurvived) != want {
				continue
			}
			detail := r.Detail
			if r.KilledBy != "" {
				detail = "by " + r.KilledBy + ": " + detail
			}
			s.rows = append(s.rows, fmt.Sprintf("| %s | %s → %s | %s | %s |\n", codeSpan(fmt.Sprintf("%s:%d", r.File, r.Line)),
				codeSpan(r.Original), codeSpan(r.Mutated), r.Outcome, mdText(detail, maxCellRunes)))
		}
	}
	return s
}

func (m *mdRenderer) notesSection() *mdSection {
	s := &mdSection{head: "\n### Notes\n\n", noun: "notes"}
	if l := tamperLine(m.v.rep.TamperCheck); l != "" {
		s.rows = append(s.rows, "- "+mdText(l, maxMessageRunes)+"\n")
	}
	if w := m.v.rep.Witness; w != nil && len(w.Tests) == 0 {
		s.rows = append(s.rows, "- "+mdText(witnessLine(w), maxMessageRunes)+"\n")
	}
	if mu := m.v.rep.Mutation; mu != nil && len(mu.Mutants) == 0 {
		s.rows = append(s.rows, "- "+mdText(mutationLine(mu), maxMessageRunes)+"\n")
	}
	for _, n := range m.v.rep.Notes {
		line := "- "
		if p := repoPath(n.File, m.opt.RepoRoot); p != "" {
			line += codeSpan(p) + ": "
		}
		s.rows = append(s.rows, line+mdText(n.Message, maxMessageRunes)+"\n")
	}
	return s
}

func (m *mdRenderer) metricsTable() string {
	if m.v.rep.Metrics == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n### Metrics\n\n| Metric | Base | Head | Delta | |\n|---|---:|---:|---:|---|\n")
	for _, r := range metricRows(m.v.rep.Metrics) {
		mark := ""
		if r.regressed() {
			mark = "**regression**"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", codeSpan(r.name), r.format(r.base), r.format(r.head), r.formatDelta(), mark)
	}
	if cl := m.v.rep.ChangedLineCoverage; cl != nil {
		fmt.Fprintf(&b, "\n%s\n", mdText(changedLinesLine(cl), maxMessageRunes))
		var rows []string
		for _, f := range cl.Files {
			if len(f.Uncovered) > 0 {
				rows = append(rows, fmt.Sprintf("| %s | %.2f%% | %d of %d | %s |\n", codeSpan(f.File), f.Percentage, f.Covered, f.Total, mdText(spanList(f.Uncovered, 10), maxMessageRunes)))
			}
		}
		if len(rows) > 0 {
			fmt.Fprintf(&b, "\n<details><summary>%s with changed lines no test ran</summary>\n\n| File | Changed-line coverage | Lines | Not run |\n|---|---:|---:|---|\n", plural(len(rows), "file"))
			for i, r := range rows {
				if i == maxListed {
					fmt.Fprintf(&b, "| and %d more files (the JSON report lists them all) | | | |\n", len(rows)-maxListed)
					break
				}
				b.WriteString(r)
			}
			b.WriteString("\n</details>\n")
		}
	}
	if failing := failingAtHead(m.v.rep.Metrics); len(failing) > 0 {
		fmt.Fprintf(&b, "\n<details><summary>%s failing at HEAD</summary>\n\n", plural(len(failing), "test"))
		for i, id := range failing {
			if i == maxListed {
				fmt.Fprintf(&b, "- and %d more (the JSON report lists them all)\n", len(failing)-maxListed)
				break
			}
			fmt.Fprintf(&b, "- %s\n", codeSpan(id))
		}
		b.WriteString("\n</details>\n")
	}
	return b.String()
}

// mdText makes text safe inside a table cell: it is cut to limit characters,
// markdown punctuation is backslash-escaped, HTML is written as entities, line
// breaks become <br>, other control characters are dropped, and "@name" cannot
// notify anyone.
// MarkdownText is mdText for other packages' markdown (the Action's job
// summary): one escaper for every markdown ralph-gate writes.
func MarkdownText(s string, limit int) string { return mdText(s, limit) }

func mdText(s string, limit int) string {
	s = truncate(s, limit)
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case r == '\r' && i < len(s) && s[i] == '\n':
		case r == '\n' || r == '\r':
			b.WriteString("<br>")
		case r == '\t':
			b.WriteByte(' ')
		case unicode.IsControl(r) || r == '\u2028' || r == '\u2029':
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '&':
			b.WriteString("&amp;")
		case r == '@':
			// A zero-width space after @ keeps GitHub from reading a mention.
			b.WriteString("@&#8203;")
		case strings.ContainsRune("\\`*_[]|~#!", r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// codeSpan writes s as inline code that survives a table cell: one line, fenced
// with more backticks than s holds in a row.
func codeSpan(s string) string {
	s = truncate(cleanLine(s), maxCellRunes)
	if strings.TrimSpace(s) == "" {
		return ""
	}
	if strings.Contains(s, "|") {
		// A pipe must be escaped even inside code, and "\\|" would end the cell:
		// plain escaped text is the only safe form.
		return mdText(s, maxCellRunes)
	}
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

func cmpOr(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

// truncate cuts s to limit characters, marking the cut with an ellipsis.
func truncate(s string, limit int) string {
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	return string([]rune(s)[:limit-1]) + "…"
}
