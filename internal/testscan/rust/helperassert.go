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
		scan := scanBody(p.toks, p.match, f.bodyOpen, f.bodyClose, &p.callBuf, true, p.asyncFns())
		out = append(out, p.dropLocal(scan.assertions)...)
		params := p.perRowParams(f, p.paramNames(f))
		for i := from; i < len(out); i++ {
			out[i].Helper = name
			out[i].RowsOf = testscan.LoopParam(out[i].Arms, params)
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

// paramNames are the names of a function's parameters (`cases` of `cases:
// &[(&str, i64)]`, `mut v` read as v); patterns and self are left out.
func (p *parser) paramNames(f *fnDecl) []string {
	if f.paramOpen < 0 {
		return nil
	}
	c := p.match[f.paramOpen]
	if c <= f.paramOpen || c > f.bodyOpen {
		return nil
	}
	var out []string
	for _, param := range splitArgs(p.toks[f.paramOpen+1 : c]) {
		k := 0
		if k < len(param) && param[k].Kind == tkIdent && param[k].Text == "mut" {
			k++
		}
		if k+1 < len(param) && param[k].Kind == tkIdent && isPunct(param[k+1], ":") {
			out = append(out, param[k].Text)
		}
	}
	return out
}

// perRowParams leaves out of a helper's params those a `for` loop of its
// body iterates over (`for (a, b) in cases`, `in cases.iter()`, `in
// &cases`) and may leave or skip a row of (a break, continue or return
// anywhere in the loop's block): its checks are not made once per row.
func (p *parser) perRowParams(f *fnDecl, params []string) []string {
	if len(params) == 0 {
		return params
	}
	is := map[string]bool{}
	for _, name := range params {
		is[name] = true
	}
	early := map[string]bool{}
	end := min(f.bodyClose, len(p.toks))
	for i := f.bodyOpen + 1; i < end; i++ {
		// `let cases = &cases[..1];` or `cases = ...`: the loop no longer
		// iterates over what the caller passed.
		if t := p.toks[i]; t.Kind == tkIdent && is[t.Text] && i+1 < end && isPunct(p.toks[i+1], "=") &&
			(i > 0 && p.toks[i-1].Kind == tkIdent && (p.toks[i-1].Text == "let" || p.toks[i-1].Text == "mut") || i > 0 && isPunct(p.toks[i-1], ";") || i > 0 && isPunct(p.toks[i-1], "{")) {
			early[t.Text] = true
		}
		if p.toks[i].Kind != tkIdent || p.toks[i].Text != "for" {
			continue
		}
		// The iterable: the first parameter named after `in`, before the
		// loop's block.
		iter, open := "", -1
		for k := i + 1; k < end; k++ {
			t := p.toks[k]
			if isPunct(t, "{") {
				open = k
				break
			}
			if iter == "" && t.Kind == tkIdent && t.Text == "in" && k+1 < end {
				for j := k + 1; j < end && !isPunct(p.toks[j], "{"); j++ {
					if p.toks[j].Kind == tkIdent {
						iter = p.toks[j].Text
						break
					}
				}
			}
		}
		if open < 0 || !is[iter] || p.match[open] <= open {
			continue
		}
		for k := open + 1; k < p.match[open] && k < end; k++ {
			if t := p.toks[k]; t.Kind == tkIdent && (t.Text == "break" || t.Text == "continue" || t.Text == "return") {
				early[iter] = true
			}
		}
	}
	return testscan.Without(params, early)
}
