package python

import "github.com/ralph-gate/ralph-gate/internal/testscan"

// helperAssertions returns the assertions in the bodies of the file's functions
// that pytest does not collect as tests: assert_* and check helpers, fixtures,
// setUp and tearDown, methods of classes that are not collected. A def nested in
// a test belongs to that test, and one nested in a helper to that helper.
// Statements outside any function (module-level asserts) are not helpers.
func (m *module) helperAssertions() []testscan.Assertion {
	var out []testscan.Assertion
	walk(m.root.body, func(s *stmt) bool {
		if !s.isDef() {
			return true
		}
		if !m.testDefs[s] {
			out = append(out, assertions(s.body)...)
		}
		return false
	})
	return out
}
