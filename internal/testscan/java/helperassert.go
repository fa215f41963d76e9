package java

import "github.com/ralph-gate/ralph-gate/internal/testscan"

// helperAssertions returns, with the names of those helpers (Assertion.Helper),
// the assertions in the bodies of the methods that are not tests (private
// assertValid helpers, @BeforeEach and @AfterEach methods, JUnit 3 setUp,
// methods of helper classes), classified exactly as in a test, in source order.
// Initializer blocks and field initializers are not methods and are not read.
func (p *parser) helperAssertions() ([]testscan.Assertion, []string) {
	var out []testscan.Assertion
	var names []string
	for _, m := range p.methods {
		if p.isTest(m) {
			continue
		}
		name := m.name
		if m.owner != nil {
			name = m.owner.qual + "." + m.name
		}
		from := len(out)
		out = append(out, scanBody(p.toks, p.match, m.bodyOpen, m.bodyClose, p.testng).assertions...)
		for i := from; i < len(out); i++ {
			out[i].Helper = name
		}
		names = append(names, name)
	}
	return out, names
}
