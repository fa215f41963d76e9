package report

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

func TestMarkdownText(t *testing.T) {
	tests := []struct {
		name, in string
		limit    int
		want     string
	}{
		{name: "pipe", in: "a | b", limit: 100, want: `a \| b`},
		{name: "newlines", in: "one\r\ntwo\nthree", limit: 100, want: "one<br>two<br>three"},
		{name: "html", in: "<details> & </td>", limit: 100, want: "&lt;details&gt; &amp; &lt;/td&gt;"},
		{name: "mention", in: "added @ts-ignore", limit: 100, want: "added @&#8203;ts-ignore"},
		{name: "emphasis and code", in: "*a* _b_ `c`", limit: 100, want: "\\*a\\* \\_b\\_ \\`c\\`"},
		{name: "backslash before pipe", in: `a\|b`, limit: 100, want: `a\\\|b`},
		{name: "control characters dropped", in: "a\x1b[31mb\x00", limit: 100, want: `a\[31mb`},
		{name: "cut", in: strings.Repeat("x", 20), limit: 10, want: strings.Repeat("x", 9) + "…"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := mdText(tc.in, tc.limit); got != tc.want {
				t.Errorf("mdText(%q, %d) = %q, want %q", tc.in, tc.limit, got, tc.want)
			}
		})
	}
}

func TestCodeSpan(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{name: "plain", in: "TestParse", want: "`TestParse`"},
		{name: "backticks inside", in: "a `b` c", want: "``a `b` c``"},
		{name: "backtick at the edge", in: "`x``", want: "``` `x`` ```"},
		{name: "pipe falls back to text", in: "a|b", want: `a\|b`},
		{name: "newline", in: "a\nb", want: "`a b`"},
		{name: "empty", in: "  ", want: ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := codeSpan(tc.in); got != tc.want {
				t.Errorf("codeSpan(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// hugeReport would make a comment of several megabytes if nothing were cut.
func hugeReport() *gate.Report {
	rep := fullReport()
	long := strings.Repeat("a very long explanation of what changed, ", 30)
	for i := range 4000 {
		sev := gate.Severity(1 + i%4)
		rep.Findings = append(rep.Findings, gate.Finding{
			ID: fmt.Sprintf("RG-TD-%012d", i), Type: gate.TestDeletion, Severity: sev,
			File: fmt.Sprintf("pkg/m%04d/x_test.go", i), Line: i + 1, Test: fmt.Sprintf("TestCase%04d", i),
			Commit: shaC3, Net: i%3 != 0, Message: long,
		})
	}
	for i := range 3000 {
		rep.Commits = append(rep.Commits, gate.Commit{SHA: fmt.Sprintf("%040x", i), Subject: long})
		rep.Notes = append(rep.Notes, gate.Note{File: fmt.Sprintf("bin/%d.png", i), Message: "skipped binary file"})
	}
	return rep
}

func TestMarkdownStaysUnderCommentLimit(t *testing.T) {
	out := string(render(t, Markdown, hugeReport(), Options{}))
	if len(out) > maxCommentBytes {
		t.Fatalf("comment is %d bytes, limit %d", len(out), maxCommentBytes)
	}
	more := regexp.MustCompile(`…and (\d+) more (net findings|findings|commits|notes)`).FindAllStringSubmatch(out, -1)
	var kinds []string
	for _, m := range more {
		kinds = append(kinds, m[2])
	}
	if got := strings.Join(kinds, ","); got != "net findings,findings,commits,notes" {
		t.Errorf("truncated sections = %q, want all four", got)
	}
	// The most severe net findings are the ones kept.
	if !strings.Contains(out, "Test TestParseEmpty was deleted") {
		t.Error("the critical finding of the fixture was cut")
	}
	for _, s := range []string{"### Metrics", "</details>", "<sub>ralph-gate v0.3.0</sub>"} {
		if !strings.Contains(out, s) {
			t.Errorf("comment lacks %q", s)
		}
	}
	if len(out) < maxCommentBytes*3/4 {
		t.Errorf("comment is %d bytes: the cut wastes most of the room", len(out))
	}
}

func TestMarkdownTablesKeepTheirShape(t *testing.T) {
	out := string(render(t, Markdown, hostileReport(), Options{}))
	for i, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, "|") {
			continue
		}
		// Unescaped pipes delimit cells: every row of a table has as many as its
		// header, which the fixture's columns fix at 7, 8, 4, 6 or 5.
		cells := len(regexp.MustCompile(`(^|[^\\])(\\\\)*\|`).FindAllString(line, -1))
		switch cells {
		case 7, 8, 4, 6, 5:
		default:
			t.Errorf("line %d has %d cell delimiters: %q", i+1, cells, line)
		}
	}
}
