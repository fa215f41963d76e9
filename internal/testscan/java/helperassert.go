package java

import "github.com/ralph-gate/ralph-gate/internal/testscan"

// helperAssertions returns, with the names of those helpers (Assertion.Helper),
// the assertions in the bodies of the methods that are not tests (private
// assertValid helpers, @BeforeEach and @AfterEach methods, JUnit 3 setUp,
// methods of helper classes), classified exactly as in a test, in source order.
// Initializer blocks and field initializers are not methods and are not read.
//
// It also returns the helpers' calls by name (File.HelperCalls), those of
// overloads merged.
func (p *parser) helperAssertions() ([]testscan.Assertion, []string, map[string][]testscan.Call) {
	var out []testscan.Assertion
	var names []string
	var calls map[string][]testscan.Call
	for _, m := range p.methods {
		if p.isTest(m) {
			continue
		}
		name := m.name
		if m.owner != nil {
			name = m.owner.qual + "." + m.name
		}
		from := len(out)
		scan := scanBody(p.toks, p.match, m.bodyOpen, m.bodyClose, p.testng, &p.callBuf)
		out = append(out, scan.assertions...)
		for i := from; i < len(out); i++ {
			out[i].Helper = name
		}
		names = append(names, name)
		if len(scan.calls) > 0 {
			if calls == nil {
				calls = map[string][]testscan.Call{}
			}
			cs := scan.calls
			if prev, ok := calls[name]; ok {
				for _, c := range cs {
					prev = testscan.AddCalls(prev, c.Name, c.Sites)
				}
				cs = prev
			}
			calls[name] = cs
		}
	}
	return out, names, calls
}
