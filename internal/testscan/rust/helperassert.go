package rust

import "github.com/ralph-gate/ralph-gate/internal/testscan"

// helperAssertions returns, with the names of those helpers (Assertion.Helper),
// the assertion macros in the bodies of the functions and methods that are not
// tests (helpers in a tests module or in tests/common/mod.rs, rstest fixtures,
// methods of a test harness type), classified exactly as in a test, in source
// order. A function nested in a test body belongs to that test. Default methods
// of traits are not read.
//
// It also returns the helpers' calls by name (File.HelperCalls; an rstest
// fixture's requested fixtures first), those of functions sharing a name
// merged.
func (p *parser) helperAssertions() ([]testscan.Assertion, []string, map[string][]testscan.Call) {
	var out []testscan.Assertion
	var names []string
	var calls map[string][]testscan.Call
	for _, f := range p.fns {
		if f.isTest() {
			continue
		}
		name := f.name
		if f.mod != nil && f.mod.path != "" {
			name = f.mod.path + "::" + f.name
		}
		from := len(out)
		scan := scanBody(p.toks, p.match, f.bodyOpen, f.bodyClose, &p.callBuf)
		out = append(out, p.dropLocal(scan.assertions)...)
		for i := from; i < len(out); i++ {
			out[i].Helper = name
		}
		names = append(names, name)
		cs := p.fixtureCalls(calls[name], f)
		if len(cs) == 0 {
			cs = scan.calls
		} else {
			for _, c := range scan.calls {
				cs = testscan.AddCalls(cs, c.Name, c.Sites)
			}
		}
		if len(cs) > 0 {
			if calls == nil {
				calls = map[string][]testscan.Call{}
			}
			calls[name] = cs
		}
	}
	return out, names, calls
}
