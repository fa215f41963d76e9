package python

import (
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

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
			params := perRowParams(s, s.defParams())
			for i := from; i < len(out); i++ {
				out[i].Helper = name
				out[i].RowsOf = testscan.LoopParam(out[i].Arms, params)
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

// perRowParams leaves out of a helper's params those a loop of its body
// iterates over and may leave or skip a row of (a `break`, `continue` or
// `return` anywhere in the loop, `if text == "-7": break` as much as a bare
// one), and those it assigns (`cases = cases[:1]`): its checks are not
// made once per row of what the caller passed.
func perRowParams(def *stmt, params []string) []string {
	early := map[string]bool{}
	walk(def.body, func(s *stmt) bool {
		// cases = cases[:1] (or cases += ..., cases[0] = ...): the loop no
		// longer iterates over what the caller passed.
		if len(s.toks) > 1 && s.toks[0].kind == tkName && s.toks[1].kind == tkOp && strings.HasSuffix(s.toks[1].text, "=") && s.toks[1].text != "==" && s.toks[1].text != "!=" && s.toks[1].text != "<=" && s.toks[1].text != ">=" {
			early[s.toks[0].text] = true
		}
		if s.tok(0) != "for" || !s.header {
			return true
		}
		in := -1
		for i, t := range s.toks {
			if t.kind == tkName && t.text == "in" {
				in = i
			}
		}
		if in < 0 || in+1 >= len(s.toks) {
			return true
		}
		walk(s.body, func(c *stmt) bool {
			if c.tok(0) == "break" || c.tok(0) == "return" || c.tok(0) == "continue" {
				early[s.toks[in+1].text] = true
			}
			return !c.isDef()
		})
		return true
	})
	return testscan.Without(params, early)
}
