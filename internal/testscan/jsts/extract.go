package jsts

import (
	"path"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// Extractor reads JavaScript and TypeScript sources.
type Extractor struct{}

var _ testscan.Extractor = (*Extractor)(nil)

// New returns a JavaScript/TypeScript extractor.
func New() *Extractor { return &Extractor{} }

// Lang returns testscan.JavaScript, which covers TypeScript, JSX and TSX.
func (*Extractor) Lang() testscan.Lang { return testscan.JavaScript }

// extensions maps the handled file extensions to whether they may hold JSX.
// Plain .ts files cannot: there "<T>x" is a type assertion.
var extensions = map[string]bool{
	".js": true, ".jsx": true, ".mjs": true, ".cjs": true, ".tsx": true,
	".ts": false, ".mts": false, ".cts": false,
}

// Handles reports whether p names a JavaScript or TypeScript source file.
func (*Extractor) Handles(p string) bool {
	_, ok := extensions[strings.ToLower(path.Ext(p))]
	return ok
}

// IsTestFile reports whether p is a test file by the usual conventions:
// *.test.* and *.spec.* names, files under __tests__/, and files under a test/
// or tests/ directory at any depth.
func (e *Extractor) IsTestFile(p string) bool {
	if !e.Handles(p) {
		return false
	}
	p = strings.ReplaceAll(p, "\\", "/")
	base := strings.ToLower(path.Base(p))
	if strings.Contains(base, ".test.") || strings.Contains(base, ".spec.") {
		return true
	}
	dirs := strings.Split(path.Dir(p), "/")
	for _, d := range dirs {
		switch d {
		case "__tests__", "test", "tests":
			return true
		}
	}
	return false
}

// isScript reports a file that is run rather than imported: one with a #!
// line, under bin/ or scripts/, or an entry point by name (cli.ts, main.js,
// server.js).
func isScript(p string, src []byte) bool {
	if strings.HasPrefix(string(src), "#!") {
		return true
	}
	base := strings.ToLower(path.Base(p))
	for _, entry := range []string{"cli.", "main.", "server.", "index.bin."} {
		if strings.HasPrefix(base, entry) {
			return true
		}
	}
	for _, d := range strings.Split(path.Dir(p), "/") {
		if d == "bin" || d == "scripts" || d == "tools" || d == "examples" {
			return true
		}
	}
	return false
}

// isSetupFile reports whether p is a test runner setup or config file, where a
// forced process exit defeats the run.
func isSetupFile(p string) bool {
	base := strings.ToLower(path.Base(p))
	for _, s := range []string{"setup", "teardown", "jest.config", "vitest.config", "mocharc"} {
		if strings.Contains(base, s) {
			return true
		}
	}
	return false
}

// Extract tokenizes src and recovers tests, helper assertions, suppressions,
// bypasses, exports and literal comparisons. It never fails; malformed input sets Partial.
func (e *Extractor) Extract(p string, src []byte) (*testscan.File, error) {
	jsx := extensions[strings.ToLower(path.Ext(p))]
	t := newTree(string(src), jsx)
	f := &testscan.File{Lang: testscan.JavaScript}
	s := newScanner(t)
	s.scanRange(0, len(t.toks), scope{calls: s.hookCalls(0, len(t.toks))})
	s.applyRetries()
	throughLocals(t, s.tests)
	stubbedChecks(t, s.tests)
	pass := t.alwaysPass()
	passingChecks(pass, s.tests)
	mockedTests(t, p, s.tests)
	f.Tests = s.tests
	f.HelperAssertions = s.helperAssertions()
	f.Helpers = s.helperNames
	f.HelperCalls = s.helperCalls
	f.Suppressions, f.Placeholders = t.suppressions()
	if !e.IsTestFile(p) && !isSetupFile(p) {
		var constant []testscan.Marker
		f.FuncNames, constant = t.funcNames()
		f.Placeholders = append(f.Placeholders, constant...)
	}
	switch {
	case e.IsTestFile(p) || isSetupFile(p):
		f.Bypasses = t.bypasses()
		if !typeTest(p) {
			f.Bypasses = append(f.Bypasses, noopMatchers(pass)...)
		}
	case !isScript(p, src):
		f.Bypasses = t.exits(true)
	}
	f.Exports = t.exports()
	f.Imports = t.relativeImports()
	f.Comparisons = t.comparisons()
	if !e.IsTestFile(p) && !isSetupFile(p) {
		f.UnderTest = t.underTest()
		f.Funcs = t.funcs()
	}
	f.Partial = t.broken
	return f, nil
}

// typeTest reports a vitest type test (`x.test-d.ts`, `x.spec-d.mts`, the
// default typecheck.include): tsc reads it, nothing runs it, so a matcher
// there that always passes (declared for the types it infers) hides no
// failure.
func typeTest(p string) bool {
	base := path.Base(p)
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	return strings.HasSuffix(base, ".test-d") || strings.HasSuffix(base, ".spec-d")
}
