package rust

import "github.com/ralph-gate/ralph-gate/internal/testscan"

// helperAssertions returns the assertion macros in the bodies of the functions
// and methods that are not tests (helpers in a tests module or in
// tests/common/mod.rs, rstest fixtures, methods of a test harness type),
// classified exactly as in a test, in source order. A function nested in a test
// body belongs to that test. Default methods of traits are not read.
func (p *parser) helperAssertions() []testscan.Assertion {
	var out []testscan.Assertion
	for _, f := range p.fns {
		if f.isTest() {
			continue
		}
		out = append(out, scanBody(p.toks, p.match, f.bodyOpen, f.bodyClose).assertions...)
	}
	return out
}
