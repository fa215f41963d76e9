package report

import (
	"cmp"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// view is what the human-facing renderers share, computed once per report so
// every format tells net, transient and suppressed findings apart the same way.
type view struct {
	rep     *gate.Report
	verdict gate.Verdict
	failOn  gate.FailOn
	// net holds net, unsuppressed findings: the ones the verdict is made of.
	net []gate.Finding
	// transient holds findings no longer present at HEAD (suppressed or not).
	transient []gate.Finding
	// suppressed holds net findings the configuration sanctioned.
	suppressed []gate.Finding
	// blocking counts net findings at or above fail-on.
	blocking int
	// byCommit holds, per commit of rep.Commits, the findings it introduced;
	// unattributed holds findings whose commit is not in the range.
	byCommit     [][]gate.Finding
	unattributed []gate.Finding
}

func newView(rep *gate.Report) *view {
	v := &view{rep: rep, failOn: gate.FailOn(rep.FailOn)}
	for _, f := range rep.Findings {
		switch {
		case !f.Net:
			v.transient = append(v.transient, f)
		case f.Suppressed != "":
			v.suppressed = append(v.suppressed, f)
		default:
			v.net = append(v.net, f)
			if f.BlocksAt(v.failOn) {
				v.blocking++
			}
		}
	}
	for _, list := range [][]gate.Finding{v.net, v.transient, v.suppressed} {
		slices.SortStableFunc(list, compareFindings)
	}
	v.verdict = rep.Verdict
	if v.verdict == "" {
		v.verdict = gate.Decide(rep.Findings, v.failOn)
	}
	v.byCommit = make([][]gate.Finding, len(rep.Commits))
	for _, f := range rep.Findings {
		i := commitIndex(rep.Commits, f.Commit)
		if i < 0 {
			v.unattributed = append(v.unattributed, f)
			continue
		}
		v.byCommit[i] = append(v.byCommit[i], f)
	}
	return v
}

// compareFindings orders by severity (highest first), then location, type and id.
func compareFindings(a, b gate.Finding) int {
	return cmp.Or(
		cmp.Compare(b.Severity, a.Severity),
		cmp.Compare(a.File, b.File),
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.Type, b.Type),
		cmp.Compare(a.ID, b.ID),
	)
}

// commitIndex finds the commit a finding names; an abbreviated sha of at least 7
// digits on either side matches.
func commitIndex(commits []gate.Commit, sha string) int {
	if sha == "" {
		return -1
	}
	for i, c := range commits {
		if c.SHA == sha {
			return i
		}
	}
	for i, c := range commits {
		if len(sha) >= 7 && len(c.SHA) >= 7 &&
			(strings.HasPrefix(c.SHA, sha) || strings.HasPrefix(sha, c.SHA)) {
			return i
		}
	}
	return -1
}

// verdictLine is the one-line decision every human-facing format ends with.
func (v *view) verdictLine() string {
	switch v.verdict {
	case gate.VerdictBlock:
		n := v.blocking
		if n == 0 {
			n = len(v.net)
		}
		return fmt.Sprintf("BLOCK: %s at or above %s", plural(n, "net finding"), v.failOn)
	case gate.VerdictWarn:
		if gate.Severity(v.failOn) == gate.SeverityNone {
			return fmt.Sprintf("WARN: %s, none blocks (fail-on none)", plural(len(v.net), "net finding"))
		}
		return fmt.Sprintf("WARN: %s, none at or above %s", plural(len(v.net), "net finding"), v.failOn)
	case gate.VerdictPass:
		if len(v.rep.Findings) == 0 {
			return "PASS: no findings"
		}
		if len(v.net) == 0 {
			return "PASS: no net findings (" + v.nonBlockingSummary() + ", not blocking)"
		}
		return "PASS: " + plural(len(v.net), "net finding") + ", none blocks"
	}
	return strings.ToUpper(cleanLine(string(v.verdict))) + ": " + plural(len(v.net), "net finding")
}

// nonBlockingSummary says "1 transient, 2 suppressed", leaving out zero counts.
func (v *view) nonBlockingSummary() string {
	var parts []string
	if n := len(v.transient); n > 0 {
		parts = append(parts, fmt.Sprintf("%d transient", n))
	}
	if n := len(v.suppressed); n > 0 {
		parts = append(parts, fmt.Sprintf("%d suppressed", n))
	}
	return strings.Join(parts, ", ")
}

// severityCounts says "1 critical, 2 high" for findings sorted by severity.
func severityCounts(findings []gate.Finding) string {
	var parts []string
	for i := 0; i < len(findings); {
		j := i
		for j < len(findings) && findings[j].Severity == findings[i].Severity {
			j++
		}
		parts = append(parts, fmt.Sprintf("%d %s", j-i, findings[i].Severity))
		i = j
	}
	return strings.Join(parts, ", ")
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// shortSHA abbreviates a commit id to the 7 digits git shows.
func shortSHA(sha string) string {
	s := cleanLine(sha)
	if utf8.RuneCountInString(s) > 7 {
		s = string([]rune(s)[:7])
	}
	return s
}

// repoPath turns a finding's file into a slash-separated path relative to the
// repository root, or "" when nothing of it is left. Absolute paths are made
// relative to root when they lie under it, and lose their leading slash (or
// drive) otherwise; ".." segments that would leave the repository are dropped, so
// the result never points outside it.
func repoPath(file, root string) string {
	p := strings.ReplaceAll(file, `\`, "/")
	if root != "" && isAbs(p) {
		r := strings.ReplaceAll(root, `\`, "/")
		if rel, err := filepath.Rel(filepath.FromSlash(r), filepath.FromSlash(p)); err == nil {
			if rel = filepath.ToSlash(rel); rel != ".." && !strings.HasPrefix(rel, "../") {
				p = rel
			}
		}
	}
	if len(p) >= 2 && p[1] == ':' && isASCIILetter(p[0]) {
		p = p[2:]
	}
	p = path.Clean("/" + p)[1:]
	if p == "" {
		return ""
	}
	return p
}

func isAbs(p string) bool {
	return strings.HasPrefix(p, "/") || (len(p) >= 3 && p[1] == ':' && p[2] == '/' && isASCIILetter(p[0]))
}

func isASCIILetter(b byte) bool { return (b|0x20) >= 'a' && (b|0x20) <= 'z' }

// cleanLine makes text from a report safe to print on one line of a terminal or
// a log: line breaks and tabs become spaces, other control characters (ESC among
// them) are shown escaped, and invalid UTF-8 becomes U+FFFD.
func cleanLine(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case r == '\r' && i < len(s) && s[i] == '\n':
			// the \n that follows writes the space
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case unicode.IsControl(r) || r == '\u2028' || r == '\u2029':
			if r <= 0xff {
				fmt.Fprintf(&b, `\x%02x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// location is "file:line", "file" or "" for display.
func location(f gate.Finding, root string) string {
	p := repoPath(f.File, root)
	if p == "" {
		return ""
	}
	if f.Line > 0 {
		return fmt.Sprintf("%s:%d", p, f.Line)
	}
	return p
}

// Location is a finding's place for every renderer: its repository path
// (relative to root when root is set and the file is under it) and line,
// "" for a finding about the whole repository.
func Location(f gate.Finding, root string) string { return location(f, root) }

// Subject names the test and symbol a finding is about, for every renderer.
func Subject(f gate.Finding) string { return subject(f) }

// Truncate cuts s to limit runes, an ellipsis last, for every renderer.
func Truncate(s string, limit int) string { return truncate(s, limit) }

// subject names the test or symbol a finding is about.
func subject(f gate.Finding) string {
	switch {
	case f.Test != "" && f.Symbol != "":
		return f.Test + " / " + f.Symbol
	case f.Test != "":
		return f.Test
	}
	return f.Symbol
}

// tamperLine says in one line whether compare's tamper check ran and, when
// not, why; "" for reports without one (analyze).
func tamperLine(tc *gate.TamperCheck) string {
	if tc == nil {
		return ""
	}
	if !tc.Ran {
		return "Tamper check: not run: " + cleanLine(tc.Reason)
	}
	s := fmt.Sprintf("Tamper check: ran BASE's %s against HEAD's code", plural(len(tc.Files), "edited test file"))
	if len(tc.Collectors) > 0 {
		s += " (" + cleanLine(strings.Join(tc.Collectors, ", ")) + ")"
	}
	if tc.Reason != "" {
		s += "; " + cleanLine(tc.Reason)
	}
	return s
}

// mutationLine says in one line whether the diff-based mutation ran and
// what it found; "" when it was not asked for.
func mutationLine(m *gate.Mutation) string {
	if m == nil {
		return ""
	}
	if !m.Ran {
		return "Mutation: not run: " + cleanLine(m.Reason)
	}
	s := fmt.Sprintf("Mutation: %d of %s killed", m.Killed, plural(m.Killed+m.Survived, "mutant"))
	if m.Score != nil {
		s += fmt.Sprintf(" (score %.1f%%)", *m.Score)
	}
	s += fmt.Sprintf(", %d survived", m.Survived)
	for _, x := range []struct {
		n    int
		what string
	}{{m.NotViable, "did not build"}, {m.Unmeasured, "unmeasured"}, {m.NotRun, "not run"}} {
		if x.n > 0 {
			s += fmt.Sprintf(", %d %s", x.n, x.what)
		}
	}
	s += fmt.Sprintf("; %s of %s budget", m.Spent, m.Budget)
	if m.Reason != "" {
		s += "; " + cleanLine(m.Reason)
	}
	return s
}

// witnessLine says in one line whether compare's fail-to-pass witness ran
// and what it found; "" for reports without one (analyze).
func witnessLine(w *gate.Witness) string {
	if w == nil {
		return ""
	}
	if !w.Ran {
		for _, t := range w.Tests {
			if t.Witness == gate.WitnessUnmeasured {
				return "Witness: HEAD's new and edited tests could not run on BASE's code: " + cleanLine(w.Reason)
			}
		}
		s := "Witness: not run: " + cleanLine(w.Reason)
		if len(w.Tests) > 0 {
			s += fmt.Sprintf("; %s failing at BASE pass at HEAD", plural(len(w.Tests), "test"))
		}
		return s
	}
	n := 0
	for _, t := range w.Tests {
		if t.Witness == gate.Witnessed {
			n++
		}
	}
	verb := "fail"
	if n == 1 {
		verb = "fails"
	}
	s := fmt.Sprintf("Witness: %d of %s %s on BASE's code", n, plural(len(w.Tests), "new or edited test"), verb)
	if len(w.Collectors) > 0 {
		s += " (" + cleanLine(strings.Join(w.Collectors, ", ")) + ")"
	}
	if w.Reason != "" {
		s += "; " + cleanLine(w.Reason)
	}
	return s
}

// maxListed bounds the test ids text and markdown list; JSON has them all.
const maxListed = 50

// failingAtHead lists the tests that fail at HEAD, from the metrics' test
// ids (nil when none were measured).
func failingAtHead(m *gate.MetricsPair) []string {
	if m == nil || m.Head == nil || m.Head.TestIDs == nil {
		return nil
	}
	return m.Head.TestIDs.Failed
}

// changedLinesLine says changed-line coverage in one line; "" when the
// report has none.
func changedLinesLine(cl *gate.ChangedLines) string {
	if cl == nil {
		return ""
	}
	var s string
	if cl.Percentage == nil {
		s = "Changed-line coverage: no executable line added or changed"
	} else {
		s = fmt.Sprintf("Changed-line coverage: %.2f%% (%d of %s added or changed at HEAD ran in tests", *cl.Percentage, cl.Covered, plural(cl.Total, "executable line"))
		if cl.Unit == "statement" {
			s += "; lines of Go statements"
		}
		s += ")"
	}
	if cl.Min != nil {
		s += fmt.Sprintf("; minimum %.2f%%", *cl.Min)
	}
	if n := len(cl.Unmeasured); n > 0 {
		s += fmt.Sprintf("; %s not in the coverage report: %s", plural(n, "changed file"), cleanLine(strings.Join(cl.Unmeasured[:min(n, 5)], ", ")))
		if n > 5 {
			s += ", …"
		}
	}
	return s
}

// lineSpan is a run of consecutive line numbers.
type lineSpan struct{ from, to int }

func (s lineSpan) String() string {
	if s.from == s.to {
		return strconv.Itoa(s.from)
	}
	return strconv.Itoa(s.from) + "-" + strconv.Itoa(s.to)
}

// spans folds sorted line numbers into runs: 3,4,5,9 -> 3-5, 9.
func spans(lines []int) []lineSpan {
	var out []lineSpan
	for _, l := range lines {
		if n := len(out); n > 0 && out[n-1].to+1 == l {
			out[n-1].to = l
			continue
		}
		out = append(out, lineSpan{l, l})
	}
	return out
}

// spanList writes at most limit spans, then how many more there are.
func spanList(lines []int, limit int) string {
	ss := spans(lines)
	parts := make([]string, 0, min(len(ss), limit)+1)
	for i, s := range ss {
		if i == limit {
			parts = append(parts, fmt.Sprintf("and %d more", len(ss)-limit))
			break
		}
		parts = append(parts, s.String())
	}
	return strings.Join(parts, ", ")
}
