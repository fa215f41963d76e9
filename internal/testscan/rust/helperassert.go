package rust

import "github.com/ralph-gate/ralph-gate/internal/testscan"

// helperAssertions returns, with the names of those helpers (Assertion.Helper),
// the assertion macros in the bodies of the functions and methods that are not
// tests (helpers in a tests module or in tests/common/mod.rs, rstest fixtures,
// methods of a test harness type), classified exactly as in a test, in source
// order. A function nested in a test body belongs to that test. Default methods
// of traits are not read.
func (p *parser) helperAssertions() ([]testscan.Assertion, []string) {
	var out []testscan.Assertion
	var names []string
	for _, f := range p.fns {
		if f.isTest() {
			continue
		}
		name := f.name
		if f.mod != nil && f.mod.path != "" {
			name = f.mod.path + "::" + f.name
		}
		from := len(out)
		out = append(out, scanBody(p.toks, p.match, f.bodyOpen, f.bodyClose).assertions...)
		for i := from; i < len(out); i++ {
			out[i].Helper = name
		}
		names = append(names, name)
	}
	return out, names
}
