package golang

import (
	"strings"
	"unicode/utf8"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// commentMarker reads a suppression directive from a comment: //nolint[:list],
// //lint:ignore CHECK, //#nosec RULE (all Kind "nolint") and coverage ignore
// comments. The text is the directive without its explanation.
func commentMarker(comment string) (kind, text string, ok bool) {
	if !mayMark(comment) {
		return "", "", false
	}
	body := comment
	switch {
	case strings.HasPrefix(body, "//"):
		body = body[2:]
	case strings.HasPrefix(body, "/*"):
		body = strings.TrimSuffix(body[2:], "*/")
	}
	body = strings.TrimSpace(body)
	// Linters read a directive only at the start of a comment (golangci-lint:
	// `^nolint`, staticcheck: `^lint:ignore`); "// see the //nolint below" is
	// prose.
	if d, ok := nolint(body); ok {
		return "nolint", d, true
	}
	lower := strings.ToLower(body)
	for _, w := range []string{"coverage-ignore", "coverage:ignore", "coverage: ignore"} {
		if strings.Contains(lower, w) {
			return "coverage-ignore", strings.ReplaceAll(w, " ", ""), true
		}
	}
	return "", "", false
}

// mayMark is false for a comment that cannot hold a directive: ASCII text
// that does not contain "lint", "nosec" or "coverage" in any case. (Non-ASCII
// text is left to commentMarker: strings.ToLower turns some runes into ASCII
// letters.)
func mayMark(c string) bool {
	for i := 0; i < len(c); i++ {
		switch c[i] | 0x20 {
		case 'l':
			if hasFoldASCII(c[i:], "lint") {
				return true
			}
		case 'n':
			if hasFoldASCII(c[i:], "nosec") {
				return true
			}
		case 'c':
			if hasFoldASCII(c[i:], "coverage") {
				return true
			}
		}
		if c[i] >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// hasFoldASCII reports whether s starts with word, a lower-case ASCII word, in
// any case.
func hasFoldASCII(s, word string) bool {
	if len(s) < len(word) {
		return false
	}
	for j := 0; j < len(word); j++ {
		if s[j]|0x20 != word[j] {
			return false
		}
	}
	return true
}

// nolint reads one directive at the start of s.
func nolint(s string) (string, bool) {
	lower := strings.ToLower(s)
	switch {
	case strings.HasPrefix(lower, "nolint"):
		rest := s[len("nolint"):]
		if rest == "" || rest[0] == ' ' || rest[0] == '\t' {
			return "nolint", true
		}
		if rest[0] != ':' {
			return "", false
		}
		rest = strings.TrimLeft(rest[1:], " ")
		if i := strings.IndexAny(rest, " \t"); i >= 0 {
			rest = rest[:i]
		}
		return "nolint:" + strings.ToLower(rest), true
	case strings.HasPrefix(lower, "lint:ignore ") || strings.HasPrefix(lower, "lint:file-ignore "):
		f := strings.Fields(s)
		if len(f) >= 2 {
			return f[0] + " " + f[1], true
		}
	case strings.HasPrefix(lower, "#nosec"):
		f := strings.Fields(s)
		if len(f) >= 2 && len(f[1]) > 1 && (f[1][0] == 'G' || f[1][0] == 'g') {
			return "#nosec " + f[1], true
		}
		return "#nosec", true
	}
	return "", false
}

// closeLike are the methods whose dropped error `_ = x.Close()` reports.
var closeLike = map[string]bool{
	"Close": true, "Write": true, "WriteString": true, "Flush": true, "Sync": true, "Shutdown": true,
}

// markers reads the suppression comments and the code markers of a unit. The
// test functions were read for code markers along with their tests (see
// env.walk); their markers are taken from ctx.walked in their place.
func (ctx *fileCtx) markers(u *unit) {
	for _, c := range u.comments {
		if kind, text, ok := commentMarker(c.Text); ok {
			ctx.out.Suppressions = append(ctx.out.Suppressions, testscan.Marker{Line: u.line(c.Pos()), Kind: kind, Text: text})
		}
		body := strings.TrimPrefix(c.Text, "//")
		if strings.HasPrefix(c.Text, "/*") {
			body = strings.TrimSuffix(strings.TrimPrefix(c.Text, "/*"), "*/")
		}
		if text, ok := testscan.TodoComment(body); ok {
			ctx.out.Placeholders = append(ctx.out.Placeholders, testscan.Marker{Line: u.line(c.Pos()), Kind: "todo-comment", Text: text})
		}
	}
	m := &markerWalk{ctx: ctx, u: u}
	m.walk(u.file)
	ctx.out.Suppressions = append(ctx.out.Suppressions, m.found.suppressions...)
	ctx.out.Bypasses = append(ctx.out.Bypasses, m.found.bypasses...)
	ctx.out.Comparisons = append(ctx.out.Comparisons, m.found.comparisons...)
	ctx.out.UnderTest = append(ctx.out.UnderTest, m.found.underTest...)
	ctx.out.Placeholders = append(ctx.out.Placeholders, m.found.placeholders...)
}
