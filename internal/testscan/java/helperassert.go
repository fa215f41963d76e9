package java

import "github.com/ralph-gate/ralph-gate/internal/testscan"

// helperAssertions returns the assertions in the bodies of the methods that are
// not tests (private assertValid helpers, @BeforeEach and @AfterEach methods,
// JUnit 3 setUp, methods of helper classes), classified exactly as in a test, in
// source order. Initializer blocks and field initializers are not methods and are
// not read.
func (p *parser) helperAssertions() []testscan.Assertion {
	var out []testscan.Assertion
	for _, m := range p.methods {
		if p.isTest(m) {
			continue
		}
		out = append(out, scanBody(p.toks, p.match, m.bodyOpen, m.bodyClose, p.testng).assertions...)
	}
	return out
}
