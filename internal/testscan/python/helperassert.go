package python

import "github.com/ralph-gate/ralph-gate/internal/testscan"

// helpers returns the assertions in the bodies of the file's functions that
// pytest does not collect as tests (assert_* and check helpers, fixtures,
// setUp and tearDown, methods of classes that are not collected), the names
// of those functions and their calls by name (File.HelperCalls; the calls of
// functions sharing a name, such as the setUp of two classes, are merged). A
// def nested in a test belongs to that test, and one nested in a helper to
// that helper. Statements outside any function (module-level asserts) are not
// helpers.
func (m *module) helpers() ([]testscan.Assertion, []string, map[string][]testscan.Call) {
	var out []testscan.Assertion
	var names []string
	var calls map[string][]testscan.Call
	walk(m.root.body, func(s *stmt) bool {
		if !s.isDef() {
			return true
		}
		if !m.testDefs[s] {
			name := s.defName()
			from := len(out)
			out = append(out, assertions(s.body)...)
			for i := from; i < len(out); i++ {
				out[i].Helper = name
			}
			names = append(names, name)
			if cs := m.helperCalls(s); len(cs) > 0 && name != "" {
				if calls == nil {
					calls = map[string][]testscan.Call{}
				}
				if prev, ok := calls[name]; ok {
					for _, c := range cs {
						prev = testscan.AddCalls(prev, c.Name, c.Sites)
					}
					cs = prev
				}
				calls[name] = cs
			}
		}
		return false
	})
	return out, names, calls
}
