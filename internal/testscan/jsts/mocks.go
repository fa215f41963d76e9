package jsts

import (
	"path"
	"slices"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// The mocks a test runs with (TestCase.Mocks, for AIWG's LP-014): module
// mocks (vi.mock, jest.mock, their doMock and unstable_mockModule), which
// apply to the whole file; spies given an answer (vi.spyOn(calc, 'total')
// .mockReturnValue(5)); functions set to a vi.fn/jest.fn; and mocks given
// an answer later (vi.mocked(total).mockReturnValue(5), total
// .mockResolvedValue(5), (total as jest.Mock).mockImplementation(() =>
// 5)). Those in a test apply to it, those outside every test (a hook, the
// top level) to all.

// jsMock is a mock read in the file: where it applies and, for a module
// mock without a factory, the module whose imports it replaces.
type jsMock struct {
	testscan.Mock
	everywhere bool   // a module mock, or one outside every test
	automock   string // the module an automock replaces ("../src/calc")
	key        bool   // a key of a module mock's factory
}

// answerMethods are the mock methods that set a mock's answer, by whether
// their argument is a function that returns it.
var answerMethods = map[string]bool{
	"mockReturnValue": false, "mockReturnValueOnce": false,
	"mockResolvedValue": false, "mockResolvedValueOnce": false,
	"mockImplementation": true, "mockImplementationOnce": true,
}

// mockedTests fills the Mocks of tests (of the file at p).
func mockedTests(t *tree, p string, tests []testscan.TestCase) {
	if len(tests) == 0 {
		return
	}
	mocks := t.mocks(tests)
	if len(mocks) == 0 {
		return
	}
	subject := moduleStem(testStem(p))
	imported := map[string][]string{} // module -> the names the file binds from it
	for _, m := range mocks {
		if m.automock != "" && moduleStem(m.automock) == subject {
			if _, ok := imported[m.automock]; !ok {
				imported[m.automock] = t.importBindings(m.automock)
			}
		}
	}
	for ti := range tests {
		tc := &tests[ti]
		var callees []string // what the test's value checks call
		var locals map[string]localCall
		for _, a := range tc.Assertions {
			if !testscan.ValueCheck(a.Kind) {
				continue
			}
			c := testscan.Callee(a.Subject)
			if c == "" && a.Subject != "" {
				if locals == nil {
					locals = t.localCalls(tc)
				}
				if l, ok := locals[a.Subject]; ok && l.line < a.Line {
					c = l.callee
				}
			}
			if c != "" && !slices.Contains(callees, c) {
				callees = append(callees, c)
			}
		}
		for _, m := range mocks {
			if !m.everywhere && (m.Line < tc.Line || m.Line > tc.EndLine) {
				continue
			}
			mk := m.Mock
			for _, c := range callees {
				switch {
				case m.automock != "":
					names := imported[m.automock]
					first, _, _ := strings.Cut(c, ".")
					mk.Subject = mk.Subject || slices.Contains(names, first)
				case m.key:
					mk.Subject = mk.Subject || c[strings.LastIndexAny(c, ".:")+1:] == m.Name
				default:
					mk.Subject = mk.Subject || testscan.SameFunction(m.Target, c)
				}
			}
			tc.Mocks = testscan.AddMock(tc.Mocks, mk)
		}
	}
}

// mocks reads the file's mocks, in source order.
func (t *tree) mocks(tests []testscan.TestCase) []jsMock {
	var out []jsMock
	inTest := func(line int) bool {
		return slices.ContainsFunc(tests, func(o testscan.TestCase) bool { return line >= o.Line && line <= o.EndLine })
	}
	add := func(m jsMock) {
		if m.Target == "" || len(out) >= 4*testscan.MaxMocks {
			return
		}
		m.everywhere = m.everywhere || !inTest(m.Line)
		out = append(out, m)
	}
	spies := map[string]jsMock{} // locals set to a spy: const spy = vi.spyOn(calc, 'total')
	var factories [][2]int       // the module mocks' factories, whose vi.fn are read as keys
	for i := 2; i+1 < len(t.toks); i++ {
		if t.kind(i) != tkIdent || !t.punct(i+1, "(") || !t.isMember(i) {
			continue
		}
		open := i + 1
		close := int(t.match[open])
		if close <= open {
			continue
		}
		line := t.toks[i].Line
		name := t.toks[i].Text
		if obj := t.toks[i-2].Text; (obj == "vi" || obj == "jest") && t.kind(i-2) == tkIdent && !t.isMember(i-2) {
			switch name {
			case "mock", "doMock", "unstable_mockModule":
				args := t.splitArgs(open, close)
				if len(args) == 0 || args[0][1]-args[0][0] != 1 || t.kind(args[0][0]) != tkString {
					continue
				}
				spec := t.toks[args[0][0]].val
				if len(args) < 2 {
					add(jsMock{Mock: testscan.Mock{Line: line, Target: spec}, everywhere: true, automock: spec})
					continue
				}
				factories = append(factories, args[1])
				for _, kv := range t.factoryEntries(args[1][0], args[1][1]) {
					add(jsMock{Mock: testscan.Mock{Line: line, Target: spec, Name: kv.key, Returns: kv.answer}, everywhere: true, key: true})
				}
			case "spyOn":
				args := t.splitArgs(open, close)
				if len(args) < 2 || args[1][1]-args[1][0] != 1 || t.kind(args[1][0]) != tkString {
					continue
				}
				fn := t.toks[args[1][0]].val
				m := jsMock{Mock: testscan.Mock{Line: line, Target: t.norm(args[0][0], args[0][1]) + "." + fn, Name: fn}}
				if stubbed, answer := t.chainAnswer(close); stubbed {
					m.Returns = answer
					add(m)
				} else if v := t.declaredAt(i - 2); v != "" {
					spies[v] = m
				}
			case "fn":
				if slices.ContainsFunc(factories, func(r [2]int) bool { return i > r[0] && i < r[1] }) {
					continue
				}
				target, fnName := t.assignedTo(i - 2)
				if target == "" {
					continue
				}
				m := jsMock{Mock: testscan.Mock{Line: line, Target: target, Name: fnName}}
				if args := t.splitArgs(open, close); len(args) > 0 {
					m.Returns = t.fnAnswer(args[0][0], args[0][1])
				}
				if _, answer := t.chainAnswer(close); m.Returns == "" {
					m.Returns = answer
				}
				add(m)
			}
			continue
		}
		returns, ok := answerMethods[name]
		if !ok {
			continue
		}
		target, fnName, ok := t.mockReceiver(i-2, spies)
		if !ok {
			continue
		}
		m := jsMock{Mock: testscan.Mock{Line: line, Target: target, Name: fnName}}
		if args := t.splitArgs(open, close); len(args) > 0 {
			if returns {
				m.Returns = t.fnAnswer(args[0][0], args[0][1])
			} else {
				m.Returns = t.mockAnswer(args[0][0], args[0][1])
			}
		}
		add(m)
	}
	return out
}

// mockReceiver names the mock whose expression ends at r, the receiver of
// an answer method: `total`, `calc.total`, `vi.mocked(total)`, `(total as
// jest.Mock)`, a local set to a spy, an earlier answer in a chain
// (`.mockReturnValueOnce(1).mockReturnValueOnce(2)`). ok is false for a
// receiver read elsewhere (a spyOn or vi.fn chain) or not understood.
func (t *tree) mockReceiver(r int, spies map[string]jsMock) (target, name string, ok bool) {
	for depth := 0; depth < 16; depth++ {
		switch {
		case t.kind(r) == tkIdent:
			if s, found := spies[t.toks[r].Text]; found && !t.isMember(r) {
				return s.Target, s.Name, true
			}
			from := r
			for from >= 2 && t.isMember(from) && t.kind(from-2) == tkIdent {
				from -= 2
			}
			if t.isMember(from) {
				return "", "", false // a member of a call or an index: not a name
			}
			return t.norm(from, r+1), t.toks[r].Text, true
		case t.punct(r, ")"):
			m := int(t.match[r])
			if m < 0 || m >= r {
				return "", "", false
			}
			if t.kind(m-1) != tkIdent {
				// (total as jest.Mock): the expression before `as`.
				end := r
				for k := m + 1; k < r; k = t.skip(k, r) {
					if t.ident(k, "as") {
						end = k
						break
					}
				}
				r = end - 1
				if r <= m {
					return "", "", false
				}
				continue
			}
			callee := t.toks[m-1].Text
			switch {
			case callee == "mocked" && (t.ident(m-3, "vi") || t.ident(m-3, "jest")):
				args := t.splitArgs(m, r)
				if len(args) == 0 {
					return "", "", false
				}
				r = args[0][1] - 1
			case strings.HasPrefix(callee, "mock") && t.isMember(m-1):
				r = m - 3
			default:
				return "", "", false
			}
		default:
			return "", "", false
		}
	}
	return "", "", false
}

// chainAnswer reads the calls chained after a spy or vi.fn (its ")" at
// close): stubbed is set when one of them replaces the function
// (mockReturnValue, mockImplementation, any mock* but mockClear,
// mockReset, mockRestore and mockName), answer is the literal the first
// answer method gives.
func (t *tree) chainAnswer(close int) (stubbed bool, answer string) {
	for k := close; t.punct(k+1, ".") && t.kind(k+2) == tkIdent && t.punct(k+3, "("); {
		name := t.toks[k+2].Text
		end := int(t.match[k+3])
		if end <= k+3 {
			return stubbed, answer
		}
		switch name {
		case "mockClear", "mockReset", "mockRestore", "mockName":
		default:
			if strings.HasPrefix(name, "mock") {
				stubbed = true
			}
		}
		if fn, ok := answerMethods[name]; ok && answer == "" {
			if args := t.splitArgs(k+3, end); len(args) > 0 {
				if fn {
					answer = t.fnAnswer(args[0][0], args[0][1])
				} else {
					answer = t.mockAnswer(args[0][0], args[0][1])
				}
			}
		}
		k = end
	}
	return stubbed, answer
}

// assignedTo names what the expression starting at i is assigned to:
// `calc.total = vi.fn()` (calc.total, total), `const total = vi.fn()`
// (total, total); "" for anything else.
func (t *tree) assignedTo(i int) (target, name string) {
	if !t.punct(i-1, "=") || t.kind(i-2) != tkIdent {
		return "", ""
	}
	r := i - 2
	if v := t.declaredAt(i); v != "" {
		return v, v
	}
	if !t.isMember(r) {
		return "", ""
	}
	from := r
	for from >= 2 && t.isMember(from) && t.kind(from-2) == tkIdent {
		from -= 2
	}
	if t.isMember(from) {
		return "", ""
	}
	return t.norm(from, r+1), t.toks[r].Text
}

// declaredAt returns the name a declaration (`const x = `, `let x = `,
// `var x = `) ending just before i binds, "" when there is none.
func (t *tree) declaredAt(i int) string {
	if t.punct(i-1, "=") && t.kind(i-2) == tkIdent && (t.ident(i-3, "const") || t.ident(i-3, "let") || t.ident(i-3, "var")) {
		return t.toks[i-2].Text
	}
	return ""
}

// mockAnswer returns the normalized literal of [from, to) (a number, a
// string, true or false, or an array or object of them), "" for anything
// else and for null and undefined.
func (t *tree) mockAnswer(from, to int) string {
	if !t.isConstant(from, to) {
		return ""
	}
	v := t.norm(from, to)
	if v == "null" || v == "undefined" {
		return ""
	}
	return v
}

// fnAnswer returns the literal the function expression in [from, to)
// returns: `() => 5`, `async (a) => 'x'`, `() => { return 5 }`,
// `function () { return 5 }`; "" for anything else.
func (t *tree) fnAnswer(from, to int) string {
	k := from
	if t.ident(k, "async") {
		k++
	}
	switch {
	case t.ident(k, "function"):
		for k < to && !t.punct(k, "{") {
			k = t.skip(k, to)
		}
		return t.returnedLiteral(k, to)
	case t.punct(k, "("):
		k = t.skip(k, to)
	case t.kind(k) == tkIdent:
		k++
	default:
		return ""
	}
	if t.punct(k, ":") { // a return type: (): number => 5
		for k < to && !t.punct(k, "=>") {
			k = t.skip(k, to)
		}
	}
	if !t.punct(k, "=>") {
		return ""
	}
	k++
	if t.punct(k, "{") {
		return t.returnedLiteral(k, to)
	}
	if t.punct(k, "(") && t.skip(k, to) == to {
		return t.mockAnswer(k+1, to-1)
	}
	return t.mockAnswer(k, to)
}

// returnedLiteral reads a block at open that is one return of a literal.
func (t *tree) returnedLiteral(open, to int) string {
	end := int(t.match[open])
	if !t.punct(open, "{") || end <= open || end >= to+1 || !t.ident(open+1, "return") {
		return ""
	}
	last := end
	if t.punct(last-1, ";") {
		last--
	}
	return t.mockAnswer(open+2, last)
}

// factoryEntry is a key of the object a module mock's factory returns and
// the literal its function answers, "" when it gives none.
type factoryEntry struct{ key, answer string }

// factoryEntries reads the object a module mock's factory ([from, to))
// returns: `() => ({ total: () => 5, width() { return 1 }, parse: vi.fn(),
// ...vi.importActual(..) })`, `() => { return { .. } }`.
func (t *tree) factoryEntries(from, to int) []factoryEntry {
	obj := -1
	for k := from; k < to; k++ {
		if t.punct(k, "{") && (t.punct(k-1, "(") || t.ident(k-1, "return")) {
			obj = k
			break
		}
	}
	if obj < 0 {
		return nil
	}
	end := int(t.match[obj])
	if end <= obj {
		return nil
	}
	var out []factoryEntry
	for k := obj + 1; k < end; {
		if t.ident(k, "async") && t.kind(k+1) == tkIdent && (t.punct(k-1, "{") || t.punct(k-1, ",")) {
			k++ // async width() { .. }
			continue
		}
		kind := t.kind(k)
		if (kind == tkIdent || kind == tkString) && (t.punct(k-1, "{") || t.punct(k-1, ",") || t.ident(k-1, "async")) {
			e := factoryEntry{key: unquote(t.toks[k].Text)}
			if kind == tkString {
				e.key = t.toks[k].val
			}
			next := k + 1
			for next < end && !t.punct(next, ",") {
				next = t.skip(next, end)
			}
			switch {
			case t.punct(k+1, ":"):
				e.answer = t.valueAnswer(k+2, next)
			case t.punct(k+1, "("):
				e.answer = t.returnedLiteral(t.skip(k+1, end), next)
			case !t.punct(k+1, ",") && !t.punct(k+1, "}"):
				k = next + 1
				continue
			}
			if e.key != "" {
				out = append(out, e)
			}
			k = next + 1
			continue
		}
		k = t.skip(k, end)
	}
	return out
}

// valueAnswer reads a factory key's value: a function returning a literal,
// or a vi.fn/jest.fn given one or an answer method's.
func (t *tree) valueAnswer(from, to int) string {
	if v := t.fnAnswer(from, to); v != "" {
		return v
	}
	if (t.ident(from, "vi") || t.ident(from, "jest")) && t.punct(from+1, ".") && t.ident(from+2, "fn") && t.punct(from+3, "(") {
		close := int(t.match[from+3])
		if close <= from+3 || close >= to {
			return ""
		}
		if args := t.splitArgs(from+3, close); len(args) > 0 {
			if v := t.fnAnswer(args[0][0], args[0][1]); v != "" {
				return v
			}
		}
		_, answer := t.chainAnswer(close)
		return answer
	}
	return ""
}

// localCall is a local a test declares once to a call: the function
// called and the line.
type localCall struct {
	callee string
	line   int
}

// localCalls returns the locals a test (tc) declares once to a call
// (`const r = await calc.total(1)`).
func (t *tree) localCalls(tc *testscan.TestCase) map[string]localCall {
	out := map[string]localCall{}
	count := map[string]int{}
	start, _ := slices.BinarySearchFunc(t.toks, tc.Line, func(tk token, line int) int { return tk.Line - line })
	for i := start; i+3 < len(t.toks); i++ {
		if t.toks[i].Line > tc.EndLine {
			break
		}
		v := t.declaredAt(i + 3)
		if v == "" {
			continue
		}
		count[v]++
		from := i + 3
		to := from
		for to < len(t.toks) && t.parent[to] == t.parent[i] && !t.punct(to, ";") && !t.punct(to, ",") && t.toks[to].Line == t.toks[from].Line {
			to = t.skip(to, len(t.toks))
		}
		if c := testscan.Callee(t.norm(from, to)); c != "" {
			out[v] = localCall{c, t.toks[i].Line}
		}
	}
	for v := range out {
		if count[v] != 1 {
			delete(out, v)
		}
	}
	return out
}

// importBindings returns the names the file binds from module spec:
// `import total, { width, parse as p } from spec`, `import * as calc from
// spec`, `const { total, width: w } = require(spec)`, `const calc =
// require(spec)`.
func (t *tree) importBindings(spec string) []string {
	var out []string
	for i := range t.toks {
		if t.kind(i) != tkString || t.toks[i].val != spec {
			continue
		}
		switch {
		case t.ident(i-1, "from"):
			k := i - 2
			for k >= 0 && !t.ident(k, "import") {
				k--
			}
			for j := k + 1; j < i-1; j++ {
				if t.kind(j) != tkIdent || t.ident(j, "type") || t.ident(j, "as") || t.punct(j+1, "as") || t.ident(j+1, "as") {
					continue
				}
				if p := int(t.parent[j]); p >= 0 && t.punct(p, "{") && t.ident(j+1, "as") {
					continue
				}
				out = append(out, t.toks[j].Text)
			}
		case t.punct(i-1, "(") && t.ident(i-2, "require") && t.punct(i-3, "="):
			k := i - 4
			if t.kind(k) == tkIdent {
				out = append(out, t.toks[k].Text)
				continue
			}
			if !t.punct(k, "}") {
				continue
			}
			open := int(t.match[k])
			for j := open + 1; j > open && j < k; j++ {
				// { a, b: c }: the bound name is the last before , or }.
				if t.kind(j) == tkIdent && int(t.parent[j]) == open && (t.punct(j+1, ",") || t.punct(j+1, "}")) {
					out = append(out, t.toks[j].Text)
				}
			}
		}
	}
	return out
}

// testStem is the name of the module a test file tests: calc for
// test/calc.test.ts, src/__tests__/calc.ts or calc.spec.js.
func testStem(p string) string {
	base := path.Base(p)
	for _, s := range []string{".test.", ".spec.", "_test.", "-test.", ".tests.", ".specs."} {
		if k := strings.Index(strings.ToLower(base), s); k > 0 {
			return base[:k]
		}
	}
	return strings.TrimSuffix(base, path.Ext(base))
}

// moduleStem normalizes a module's name for comparison: its last part
// without extension (an index module by its directory), lower case, without
// separators.
func moduleStem(spec string) string {
	base := path.Base(spec)
	if _, ok := extensions[strings.ToLower(path.Ext(base))]; ok {
		base = strings.TrimSuffix(base, path.Ext(base))
	}
	if base == "index" {
		base = path.Base(path.Dir(spec))
	}
	return strings.Map(func(r rune) rune {
		switch r {
		case '-', '_', '.':
			return -1
		}
		return r
	}, strings.ToLower(base))
}
