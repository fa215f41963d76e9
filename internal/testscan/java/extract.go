package java

import (
	"path"
	"sort"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan/clex"

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
func (e *Extractor) Extract(p string, src []byte) (*testscan.File, error) {
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
	f.Bypasses = ps.lifecycleSkips()
	f.Suppressions, f.Placeholders = suppressions(lx.toks, match, lx.comments)
	f.Comparisons = comparisons(lx.toks, match)
	if !e.IsTestFile(p) {
		var constant []testscan.Marker
		f.FuncNames, constant = ps.funcNames(lx.comments)
		f.Placeholders = append(f.Placeholders, constant...)
		f.Funcs = ps.funcs()
	}
	f.Partial = lx.broken || !balanced || ps.partial
	return f, nil
}

// importsTestNG reports whether the file imports TestNG, whose assertEquals takes
// the actual value first.
func importsTestNG(toks []token) bool {
	for i := 0; i+3 < len(toks); i++ {
		if toks[i].Text != "import" || toks[i].Kind != tkIdent {
			continue
		}
		j := i + 1
		if toks[j].Text == "static" {
			j++
		}
		if j+2 < len(toks) && toks[j].Text == "org" && toks[j+1].Text == "." && toks[j+2].Text == "testng" {
			return true
		}
	}
	return false
}

// joinTokens renders tokens as normalized text (see clex.Join).
func joinTokens(toks []token) string { return clex.Join(toks, tkPunct) }

// isLiteral reports whether toks is exactly one literal: a string, char or number
// (optionally negated), true, false or null.
func isLiteral(toks []token) bool {
	if len(toks) == 2 && toks[0].Text == "-" && toks[1].Kind == tkNumber {
		return true
	}
	if len(toks) != 1 {
		return false
	}
	switch toks[0].Kind {
	case tkString, tkChar, tkNumber:
		return true
	case tkIdent:
		return toks[0].Text == "true" || toks[0].Text == "false" || toks[0].Text == "null"
	}
	return false
}

// fingerprint hashes the tokens with the test's own name blanked out.
func fingerprint(toks []token, name string) string {
	return clex.Fingerprint(toks, name, tkIdent, tkPunct)
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
		switch t.Kind {
		case tkString, tkChar:
			out = append(out, t.Text)
		case tkNumber:
			if i > 0 && toks[i-1].Text == "-" && (i == 1 || toks[i-2].Kind == tkPunct && !closesOperand(toks[i-2].Text)) {
				out = append(out, "-"+t.Text)
			} else {
				out = append(out, t.Text)
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
