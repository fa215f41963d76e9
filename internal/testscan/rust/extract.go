package rust

import (
	"path"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan/clex"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// Extractor reads Rust source files.
type Extractor struct{}

var _ testscan.Extractor = (*Extractor)(nil)

// New returns a Rust extractor.
func New() *Extractor { return &Extractor{} }

// Lang reports testscan.Rust.
func (*Extractor) Lang() testscan.Lang { return testscan.Rust }

// Handles reports whether path names a .rs file.
func (*Extractor) Handles(p string) bool { return strings.HasSuffix(p, ".rs") }

// IsTestFile reports whether path is a Cargo integration test (under a tests/
// directory) or a test module file by name (foo_test.rs, foo_tests.rs, tests.rs).
// Unit tests in #[cfg(test)] modules of other files count through their test cases.
func (e *Extractor) IsTestFile(p string) bool {
	if !e.Handles(p) {
		return false
	}
	if strings.HasPrefix(p, "tests/") || strings.Contains(p, "/tests/") {
		return true
	}
	base := path.Base(p)
	return base == "tests.rs" || strings.HasSuffix(base, "_test.rs") || strings.HasSuffix(base, "_tests.rs")
}

// Extract parses src and returns its tests, markers, exports and comparisons.
func (e *Extractor) Extract(p string, src []byte) (*testscan.File, error) {
	lx := lex(src)
	match, balanced := matchGroups(lx.toks)
	ps := &parser{toks: lx.toks, match: match}
	ps.items(0, len(lx.toks), &module{exported: true}, false)
	helperAssertions, helpers, helperCalls := ps.helperAssertions()
	sup, placeholders := suppressions(lx.toks, match, todoComments(lx.comments))
	var names []string
	var funcs []testscan.Func
	if !e.IsTestFile(p) {
		var constant []testscan.Marker
		names, constant, funcs = ps.funcs(lx.comments)
		placeholders = append(placeholders, constant...)
	}
	return &testscan.File{
		Lang:             testscan.Rust,
		Tests:            ps.tests(lx.comments),
		HelperAssertions: helperAssertions,
		Helpers:          helpers,
		HelperCalls:      helperCalls,
		Suppressions:     sup,
		Placeholders:     placeholders,
		FuncNames:        names,
		Funcs:            funcs,
		Exports:          ps.exports,
		Comparisons:      comparisons(lx.toks, match),
		Bypasses:         shadowedAsserts(lx.toks, match),
		Partial:          lx.broken || !balanced || ps.partial,
	}, nil
}

// joinTokens renders tokens as normalized text (see clex.Join).
func joinTokens(toks []token) string { return clex.Join(toks, tkPunct) }

// isLiteral reports whether toks is exactly one literal: a string, char or number
// (optionally negated), true or false.
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
		return toks[0].Text == "true" || toks[0].Text == "false"
	}
	return false
}

// fingerprint hashes the tokens with the test's own name blanked out.
func fingerprint(toks []token, name string) string {
	return clex.Fingerprint(toks, name, tkIdent, tkPunct)
}

// maxLiterals bounds TestCase.Literals.
const maxLiterals = 64

// literals lists the string, char and number literals among toks, a minus sign
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
			if i > 0 && toks[i-1].Text == "-" && (i == 1 || toks[i-2].Kind == tkPunct && toks[i-2].Text != ")" && toks[i-2].Text != "]") {
				out = append(out, "-"+t.Text)
			} else {
				out = append(out, t.Text)
			}
		}
	}
	return out
}
