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

// lifecycleSkips finds the set-up methods that skip the tests they run
// before (@BeforeEach, @BeforeAll, JUnit 4's @Before and @BeforeClass): an
// assumption that fails every time (assumeTrue(false),
// Assumptions.abort()), one that reads the environment, or one that reads
// which test is about to run (TestInfo's display name, method or tags).
// JUnit reports each test it reaches aborted or ignored, none of them
// carrying a skip of its own. An assumption on anything else (the
// operating system, a service being up) is left alone.
func (p *parser) lifecycleSkips() []testscan.Marker {
	var out []testscan.Marker
	for _, m := range p.methods {
		name := lifecycleName(m.annots)
		if m.bodyOpen < 0 || name == "" {
			continue
		}
		scan := scanBody(p.toks, p.match, m.bodyOpen, m.bodyClose, p.testng, &p.callBuf)
		sk := scan.skip
		if sk == nil || sk.Kind != testscan.SkipCall && sk.Kind != testscan.SkipConditional {
			continue
		}
		targeted := false
		for k := m.bodyOpen; k < m.bodyClose && k < len(p.toks); k++ {
			switch p.toks[k].Text {
			case "getDisplayName", "getTestMethod", "getTags":
				targeted = true
			}
		}
		if sk.Kind == testscan.SkipCall || sk.EnvGuard || targeted {
			out = append(out, testscan.Marker{Line: m.line, Kind: "hook-skip", Text: "@" + name + " " + m.name + " skips the tests it runs before"})
		}
	}
	return out
}

// lifecycleName is the set-up annotation of a method, "" for none.
func lifecycleName(as []annotation) string {
	for _, a := range as {
		switch a.name {
		case "BeforeEach", "BeforeAll", "Before", "BeforeClass":
			return a.name
		}
	}
	return ""
}
