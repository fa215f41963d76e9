package java

import (
	"path"
	"sort"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// Extractor reads Java source files.
type Extractor struct{}

var _ testscan.Extractor = (*Extractor)(nil)

// New returns a Java extractor.
func New() *Extractor { return &Extractor{} }

// Lang reports testscan.Java.
func (*Extractor) Lang() testscan.Lang { return testscan.Java }

// Handles reports whether path names a .java file.
func (*Extractor) Handles(p string) bool { return strings.HasSuffix(p, ".java") }

// IsTestFile reports whether path follows the Maven Surefire and Failsafe naming
// conventions (FooTest, FooTests, TestFoo, FooTestCase, FooIT, FooITCase) or sits
// under a src/test/ tree.
func (e *Extractor) IsTestFile(p string) bool {
	if !e.Handles(p) {
		return false
	}
	if strings.HasPrefix(p, "src/test/") || strings.Contains(p, "/src/test/") {
		return true
	}
	stem := strings.TrimSuffix(path.Base(p), ".java")
	for _, suffix := range []string{"Test", "Tests", "TestCase", "IT", "ITCase"} {
		if strings.HasSuffix(stem, suffix) && len(stem) > len(suffix) {
			return true
		}
	}
	return strings.HasPrefix(stem, "Test") && len(stem) > len("Test")
}

// Extract parses src and returns its tests, markers, exports and comparisons.
func (*Extractor) Extract(p string, src []byte) (*testscan.File, error) {
	lx := lex(src)
	match, balanced := matchGroups(lx.toks)
	ps := &parser{
		toks:   lx.toks,
		match:  match,
		stem:   strings.TrimSuffix(path.Base(p), ".java"),
		testng: importsTestNG(lx.toks),
	}
	ps.members(0, len(lx.toks), nil)
	f := &testscan.File{Lang: testscan.Java}
	f.Tests = ps.tests(lx.comments)
	f.HelperAssertions, f.Helpers, f.HelperCalls = ps.helperAssertions()
	f.Exports = ps.exports
	f.Suppressions = suppressions(lx.toks, match, lx.comments)
	f.Comparisons = comparisons(lx.toks, match)
	f.Partial = lx.broken || !balanced || ps.partial
	return f, nil
}

// importsTestNG reports whether the file imports TestNG, whose assertEquals takes
// the actual value first.
func importsTestNG(toks []token) bool {
	for i := 0; i+3 < len(toks); i++ {
		if toks[i].text != "import" || toks[i].kind != tkIdent {
			continue
		}
		j := i + 1
		if toks[j].text == "static" {
			j++
		}
		if j+2 < len(toks) && toks[j].text == "org" && toks[j+1].text == "." && toks[j+2].text == "testng" {
			return true
		}
	}
	return false
}

// maxTextTokens caps normalized operand text so that hostile nesting stays linear.
const maxTextTokens = 256

// joinTokens renders tokens as normalized text: no whitespace except one space
// between two word-like tokens, so reformatting never changes the result.
func joinTokens(toks []token) string {
	if len(toks) > maxTextTokens {
		toks = toks[:maxTextTokens]
	}
	var b strings.Builder
	for i, t := range toks {
		if i > 0 && wordLike(toks[i-1]) && wordLike(t) {
			b.WriteByte(' ')
		}
		b.WriteString(t.text)
	}
	return b.String()
}

func wordLike(t token) bool { return t.kind != tkPunct }

// isLiteral reports whether toks is exactly one literal: a string, char or number
// (optionally negated), true, false or null.
func isLiteral(toks []token) bool {
	if len(toks) == 2 && toks[0].text == "-" && toks[1].kind == tkNumber {
		return true
	}
	if len(toks) != 1 {
		return false
	}
	switch toks[0].kind {
	case tkString, tkChar, tkNumber:
		return true
	case tkIdent:
		return toks[0].text == "true" || toks[0].text == "false" || toks[0].text == "null"
	}
	return false
}

func closer(t token) bool {
	return t.kind == tkPunct && (t.text == ")" || t.text == "]" || t.text == "}")
}

// fingerprint hashes the body tokens with the test's own name blanked out.
func fingerprint(toks []token, name string) string {
	var h testscan.TokenHash
	for i, t := range toks {
		if t.kind == tkPunct && t.text == "," && i+1 < len(toks) && closer(toks[i+1]) {
			continue // a trailing comma is formatting
		}
		text := t.text
		if t.kind == tkIdent && text == name {
			text = "\x01"
		}
		h.Add(byte(t.kind), text)
	}
	return h.Sum()
}

// maxLiterals bounds TestCase.Literals.
const maxLiterals = 64

// literals lists the string, char and number literals of a body, a minus sign
// joined to the number it negates.
func literals(toks []token) []string {
	var out []string
	for i, t := range toks {
		if len(out) == maxLiterals {
			break
		}
		switch t.kind {
		case tkString, tkChar:
			out = append(out, t.text)
		case tkNumber:
			if i > 0 && toks[i-1].text == "-" && (i == 1 || toks[i-2].kind == tkPunct && !closesOperand(toks[i-2].text)) {
				out = append(out, "-"+t.text)
			} else {
				out = append(out, t.text)
			}
		}
	}
	return out
}

// closesOperand reports whether a punctuation token ends an operand, making a
// following "-" binary.
func closesOperand(p string) bool { return p == ")" || p == "]" || p == "++" || p == "--" }

// sortMarkers orders markers by line, keeping source order within a line.
func sortMarkers(ms []testscan.Marker) {
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].Line < ms[j].Line })
}
