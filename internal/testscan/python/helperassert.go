package python

import "github.com/ralph-gate/ralph-gate/internal/testscan"

// helperAssertions returns the assertions in the bodies of the file's functions
// that pytest does not collect as tests: assert_* and check helpers, fixtures,
// setUp and tearDown, methods of classes that are not collected. A def nested in
// a test belongs to that test, and one nested in a helper to that helper.
// Statements outside any function (module-level asserts) are not helpers.
func (m *module) helperAssertions() []testscan.Assertion {
	out, _ := m.helpers()
	return out
}

// helpers returns the assertions of the module's non-test functions and the
// names of those functions.
func (m *module) helpers() ([]testscan.Assertion, []string) {
	var out []testscan.Assertion
	var names []string
	walk(m.root.body, func(s *stmt) bool {
		if !s.isDef() {
			return true
		}
		if !m.testDefs[s] {
			from := len(out)
			out = append(out, assertions(s.body)...)
			for i := from; i < len(out); i++ {
				out[i].Helper = s.defName()
			}
			names = append(names, s.defName())
		}
		return false
	})
	return out, names
}
