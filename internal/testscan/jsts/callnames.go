package jsts

import "github.com/ralph-gate/ralph-gate/internal/testscan"

// The calls of tests and helpers (testscan.TestCase.Calls, File.HelperCalls)
// are read from the same token walks that find assertions: each identifier
// followed by an argument list is a call site, named "f" for f(...) and ".m"
// for x.m(...), this.m(...) or f().m(...). Left out are the assertions
// themselves (the head and links of every chain assertionAt reads, which
// markLinks records), the test framework (describe/it/test and their
// modifiers, hooks, the test context parameter, vi./jest./sinon. mocks),
// builtins and globals (console.*, JSON.*, Object.*, require, setTimeout,
// Array and Promise methods such as .map and .then), supertest requests,
// constructor calls (new Foo()) and definitions (function f(), methods).

const (
	// maxCalleeChain bounds the links walked back from a method call to the
	// value it is called on.
	maxCalleeChain = 32
	// maxTypeArgs bounds the tokens of the type arguments of a generic call
	// (make<User>(...)).
	maxTypeArgs = 32
)

// calleeExcluded are the names that are not calls of a project's function
// when called directly: keywords that take parentheses, the test framework
// and JavaScript's global functions.
var calleeExcluded = func() map[string]bool {
	m := set(
		// keywords
		"if", "for", "while", "switch", "catch", "with", "function", "return", "typeof",
		"await", "yield", "void", "delete", "in", "of", "new", "do", "else", "instanceof",
		"case", "throw", "async", "super", "import", "export", "class", "extends", "let",
		"const", "var", "as", "satisfies", "keyof",
		// the test framework
		"expect", "assert", "should", "beforeEach", "afterEach", "beforeAll", "afterAll",
		"before", "after", "pending", "fail", "spyOn",
		// globals
		"require", "String", "Number", "Boolean", "Symbol", "BigInt", "Object", "Array",
		"Date", "RegExp", "Error", "TypeError", "RangeError", "SyntaxError", "ReferenceError",
		"EvalError", "URIError", "AggregateError", "Promise", "Proxy", "Map", "Set",
		"parseInt", "parseFloat", "isNaN", "isFinite", "setTimeout", "setInterval",
		"setImmediate", "clearTimeout", "clearInterval", "clearImmediate", "queueMicrotask",
		"structuredClone", "encodeURIComponent", "decodeURIComponent", "encodeURI",
		"decodeURI", "atob", "btoa", "fetch", "eval",
	)
	for name := range callBases {
		m[name] = true
	}
	return m
}()

// globalRoots are the values whose methods are not calls of a project's
// function: assertion and mocking libraries, the test framework's objects
// (test.step, it.skip inside a body) and JavaScript's globals.
var globalRoots = func() map[string]bool {
	m := set(
		"expect", "assert", "chai", "should", "sinon", "vi", "jest", "jasmine", "require",
		"console", "JSON", "Object", "Array", "Promise", "Math", "Number", "String",
		"Boolean", "Date", "Reflect", "Symbol", "BigInt", "Buffer", "process", "Intl",
		"Error", "RegExp", "Map", "Set", "WeakMap", "WeakSet", "URL", "URLSearchParams",
		"globalThis", "performance", "window", "document", "navigator", "localStorage",
		"sessionStorage", "Atomics", "Cypress",
	)
	for name := range callBases {
		m[name] = true
	}
	return m
}()

// builtinMethods are methods of JavaScript's own values (promises, arrays,
// strings, functions) that no helper is likely to be named after.
var builtinMethods = set(
	"then", "catch", "finally", "call", "apply", "bind", "toString", "valueOf",
	"hasOwnProperty", "map", "forEach", "reduce", "reduceRight", "flatMap", "flat",
	"some", "every", "findIndex", "push", "pop", "shift", "unshift", "slice",
	"splice", "concat", "join", "split", "indexOf", "lastIndexOf", "toLowerCase",
	"toUpperCase", "replace", "replaceAll", "trim", "trimStart", "trimEnd", "padStart", "padEnd", "charAt",
	"charCodeAt", "substring", "substr", "localeCompare", "toFixed", "toISOString", "getTime",
)

// mochaContext are the methods of mocha's test context (this.timeout(5000)).
var mochaContext = set("timeout", "slow", "retries", "skip")

// setupHooks are the hooks whose calls a test inherits from the groups around
// it: the setup that runs before it.
var setupHooks = set("beforeEach", "beforeAll", "before", "setup", "suiteSetup")

// methodModifiers may stand before a method's name in a class or object.
var methodModifiers = set("async", "static", "public", "private", "protected", "get", "set",
	"override", "readonly", "abstract", "declare")

// markLinks records the head and the links of the assertion chain that starts
// at identifier j (expect(x).not.toBe, assert.equal, x.should.have.property,
// request(app).get('/').expect): they are not calls of the project's code.
// Their arguments are not marked.
func (t *tree) markLinks(j, limit int) {
	if t.links == nil {
		t.links = make([]uint64, len(t.toks)/64+1)
	}
	mark := func(k int) { t.links[k/64] |= 1 << (k % 64) }
	mark(j)
	k := j + 1
	for n := 0; n < maxRequestChain && k+1 < limit; n++ {
		prev := k - 1
		switch {
		case (t.punct(k, ".") || t.punct(k, "?.")) && t.kind(k+1) == tkIdent:
			mark(k + 1)
			k += 2
		case t.punct(k, "(") && (t.kind(prev) == tkIdent || t.punct(prev, "]")) && t.matched(k, limit):
			k = int(t.match[k]) + 1
		case t.punct(k, "[") && t.toks[k].Line == t.toks[prev].Line && t.matched(k, limit):
			k = int(t.match[k]) + 1
		default:
			return
		}
	}
}

// isLink reports whether markLinks marked token j.
func (t *tree) isLink(j int) bool {
	return j/64 < len(t.links) && t.links[j/64]&(1<<(j%64)) != 0
}

// callOpen returns the "(" of a call whose callee ends at identifier j (f(,
// f?.(, f<T>(), or -1.
func (t *tree) callOpen(j int) int {
	k := j + 1
	if k >= len(t.toks) || t.toks[k].Kind != tkPunct {
		return -1
	}
	switch t.toks[k].Text {
	case "(":
		return k
	case "?.":
		if t.punct(k+1, "(") {
			return k + 1
		}
	case "<":
		return t.typeArgsCall(k)
	}
	return -1
}

// typeArgsCall returns the "(" after the type arguments opened at lt, or -1
// when what follows the "<" does not look like type arguments.
func (t *tree) typeArgsCall(lt int) int {
	depth := 0
	for i := lt; i < len(t.toks) && i < lt+maxTypeArgs; i++ {
		tk := &t.toks[i]
		switch tk.Kind {
		case tkIdent, tkString, tkNumber:
			continue
		case tkPunct:
		default:
			return -1
		}
		switch tk.Text {
		case "<":
			depth++
		case ">":
			depth--
		case ">>":
			depth -= 2
		case ">>>":
			depth -= 3
		case ".", ",", "[", "]", "|", "&", "{", "}", ":", "(", ")", "=>":
			continue
		default:
			return -1
		}
		if depth <= 0 {
			if depth == 0 && t.punct(i+1, "(") {
				return i + 1
			}
			return -1
		}
	}
	return -1
}

// callName names the call whose callee ends at identifier j for
// TestCase.Calls: "f" for f(...), ".m" for x.m(...); "" when j is no call or
// the call is left out (see the top of this file). param is the test
// context parameter of the function around j, "" when none is known.
func (t *tree) callName(j int, param string) string {
	open := t.callOpen(j)
	if open < 0 || t.isLink(j) {
		return ""
	}
	name := t.toks[j].Text
	if t.isMember(j) {
		if builtinMethods[name] {
			return ""
		}
		root, called := t.calleeRoot(j)
		if root >= 0 {
			r := t.toks[root].Text
			switch {
			case globalRoots[r], r == param && param != "",
				r == "this" && root == j-2 && mochaContext[name],
				!called && t.ident(root-1, "new"):
				return ""
			}
			if _, ok := t.requestRoot(root, len(t.toks)); ok {
				return "" // supertest's request(app).get('/'), agent.post(...)
			}
		}
		return "." + name
	}
	if calleeExcluded[name] || name == param && param != "" {
		return ""
	}
	if t.ident(j-1, "function") || t.ident(j-1, "new") || t.punct(j-1, "@") ||
		t.punct(j-1, "*") && t.ident(j-2, "function") {
		return ""
	}
	if t.matched(open, len(t.toks)) {
		c := int(t.match[open])
		if t.punct(c+1, "{") || t.punct(c+1, ":") && t.definitionStart(j) {
			return "" // a method definition: m(x) {, m(x): T {
		}
	}
	if t.requests().roots[name] {
		return "" // supertest's request(app)
	}
	return name
}

// definitionStart reports whether identifier j, followed by a parameter list
// and ":", starts a TypeScript method definition or signature rather than a
// call in a conditional expression: only modifiers stand between it and the
// start of a member.
func (t *tree) definitionStart(j int) bool {
	k := j - 1
	for k >= 0 && (t.kind(k) == tkIdent && methodModifiers[t.toks[k].Text] || t.punct(k, "*")) {
		k--
	}
	return k < 0 || t.punct(k, "{") || t.punct(k, "}") || t.punct(k, ";") || t.punct(k, ",")
}

// calleeRoot walks back from the method name at j (a member) over the chain
// it is called on to the identifier that starts it: a in a.b(x).c[0].m();
// -1 when the chain starts with something else (a literal, a parenthesized
// expression). called reports whether the chain holds a call.
func (t *tree) calleeRoot(j int) (root int, called bool) {
	k := j
	for range maxCalleeChain {
		if !t.isMember(k) {
			return k, called
		}
		p := k - 2
		for n := 0; n < maxCalleeChain && (t.punct(p, ")") || t.punct(p, "]")); n++ {
			o := int(t.match[p])
			if o < 0 || o >= p {
				return -1, called
			}
			called = called || t.toks[p].Text == ")"
			p = o - 1
		}
		if t.kind(p) != tkIdent {
			return -1, called
		}
		k = p
	}
	return -1, called
}

// addCall records the call at identifier j, if it is one.
func (t *tree) addCall(calls []testscan.Call, j int, param string) []testscan.Call {
	if name := t.callName(j, param); name != "" {
		return testscan.AddCall(calls, name)
	}
	return calls
}

// refCall records a function passed by reference as a test or hook
// (it('works', checkAll), beforeEach(resetDb)): the framework calls it.
func (t *tree) refCall(fn fnInfo, calls []testscan.Call) []testscan.Call {
	last := fn.to - 1
	if last < fn.from || t.kind(last) != tkIdent {
		return calls
	}
	name := t.toks[last].Text
	switch {
	case last == fn.from && !calleeExcluded[name]:
		return testscan.AddCall(calls, name)
	case last > fn.from && !builtinMethods[name] && !globalRoots[t.toks[fn.from].Text]:
		return testscan.AddCall(calls, "."+name)
	}
	return calls
}

// bodyCalls adds the calls in a function's body (a hook's callback) to calls.
func (t *tree) bodyCalls(fn fnInfo, calls []testscan.Call) []testscan.Call {
	if fn.ref {
		return t.refCall(fn, calls)
	}
	for j := fn.bodyFrom; j < fn.bodyTo && j < len(t.toks); j++ {
		if t.toks[j].Kind != tkIdent {
			continue
		}
		if len(t.assertionAt(j, fn.bodyTo, fn.param)) > 0 {
			t.markLinks(j, fn.bodyTo)
		}
		calls = t.addCall(calls, j, fn.param)
	}
	return calls
}

// hookCalls returns the calls in the setup hooks (beforeEach, beforeAll,
// mocha's before, TDD setup, playwright's test.beforeEach) at the top level of
// the group body [from, to), wherever they stand in it: they run before each
// test of the group. Results are cached by from, as describe.each scans a
// body once per row.
func (s *scanner) hookCalls(from, to int) []testscan.Call {
	if calls, ok := s.hooks[from]; ok {
		return calls
	}
	t := s.t
	var calls []testscan.Call
	for i := from; i < to; {
		if t.toks[i].Kind == tkIdent && !t.isMember(i) {
			h := i
			if t.toks[i].Text == "test" && t.punct(i+1, ".") {
				h = i + 2
			}
			if t.kind(h) == tkIdent && setupHooks[t.toks[h].Text] && t.punct(h+1, "(") && t.matched(h+1, to) {
				close := int(t.match[h+1])
				args := t.splitArgs(h+1, close)
				found := false
				for _, a := range args {
					if fn, ok := t.fnAt(a[0], a[1]); ok {
						calls, found = t.bodyCalls(fn, calls), true
						break
					}
				}
				if !found && len(args) > 0 {
					if fn, ok := t.refAt(args[0][0], args[0][1]); ok {
						calls = t.refCall(fn, calls)
					}
				}
				i = close + 1
				continue
			}
		}
		i = t.skip(i, to)
	}
	s.hooks[from] = calls
	return calls
}

// mergeCalls returns a new slice with the calls of a, then those of b.
func mergeCalls(a, b []testscan.Call) []testscan.Call {
	if len(a)+len(b) == 0 {
		return nil
	}
	out := make([]testscan.Call, len(a), min(len(a)+len(b), testscan.MaxCalls))
	copy(out, a)
	for _, c := range b {
		out = testscan.AddCalls(out, c.Name, c.Sites)
	}
	return out
}

// addHelperCall files the call at identifier j, outside any test, under the
// named function around it (File.HelperCalls); memo caches that function's
// name by the innermost bracket around j.
func (s *scanner) addHelperCall(j int, param string, names map[int32]string, memo map[int32]string) {
	t := s.t
	p := t.parent[j]
	if p < 0 {
		return
	}
	name := t.callName(j, param)
	if name == "" {
		return
	}
	helper, ok := memo[p]
	if !ok {
		helper = t.helperName(j, names)
		memo[p] = helper
	}
	if helper == "" {
		return
	}
	if s.helperCalls == nil {
		s.helperCalls = map[string][]testscan.Call{}
	}
	s.helperCalls[helper] = testscan.AddCall(s.helperCalls[helper], name)
}
