package python

import (
	"sort"
	"strconv"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// classScope is an enclosing test class.
type classScope struct {
	name     string
	decos    []*stmt
	skip     *testscan.Skip // from the class's decorators or its pytestmark
	marks    []string       // from the class's decorators and its pytestmark
	unittest bool
}

// collectTests finds the test cases as pytest collects them: test* functions
// at module level, test* methods of Test* classes without __init__ (and of their
// nested Test* classes), and test* methods of unittest.TestCase subclasses,
// including methods inherited from classes of the same file.
func (m *module) collectTests() []testscan.TestCase {
	var all []testscan.TestCase
	m.visitContainer(m.root.body, nil, &all)
	// A name bound twice is collected once, as its last definition.
	last := make(map[string]int, len(all))
	for i, tc := range all {
		last[tc.ID] = i
	}
	out := all[:0]
	for i, tc := range all {
		if last[tc.ID] == i {
			out = append(out, tc)
		}
	}
	return out
}

func (m *module) visitContainer(body []*stmt, scopes []classScope, out *[]testscan.TestCase) {
	for _, s := range body {
		switch {
		case s.isDef():
			if len(scopes) == 0 && m.isModuleTest(s) {
				*out = append(*out, m.testCases(s, scopes)...)
			}
		case s.isClass():
			sc, ok := m.testClass(s, scopes)
			if !ok {
				continue
			}
			inner := append(append([]classScope(nil), scopes...), sc)
			for _, meth := range m.methods(s) {
				if strings.HasPrefix(meth.defName(), "test") && !isFixture(meth) {
					*out = append(*out, m.testCases(meth, inner)...)
				}
			}
			if !sc.unittest {
				m.visitContainer(classBody(s), inner, out)
			}
		case s.header && s.keyword() != "def" && s.keyword() != "for" && s.keyword() != "while":
			// Definitions inside module- or class-level if/try/with blocks become
			// attributes like any other.
			m.visitContainer(s.body, scopes, out)
		}
	}
}

// classBody returns the nested class statements of a class body (methods are
// handled by methods, so only classes are visited from here).
func classBody(c *stmt) []*stmt {
	var out []*stmt
	for _, s := range c.body {
		if s.isClass() {
			out = append(out, s)
		}
	}
	return out
}

// isModuleTest reports whether a module-level def is a test function.
func (m *module) isModuleTest(s *stmt) bool {
	if !strings.HasPrefix(s.defName(), "test") || isFixture(s) {
		return false
	}
	return m.isTest || m.usesFramework
}

// isFixture reports whether a def is a pytest fixture (never collected).
func isFixture(s *stmt) bool {
	for _, d := range s.decos {
		if len(d.toks) < 2 {
			continue
		}
		name := dotted(d.toks[1:])
		if name == "" {
			if c, ok := asCall(d.toks[1:]); ok {
				name = c.name
			}
		}
		if name == "pytest.fixture" || name == "fixture" || strings.HasSuffix(name, ".fixture") {
			return true
		}
	}
	return false
}

// bases returns the tokens of a class's base list, split per base.
func bases(c *stmt) [][]token {
	for i, t := range c.toks {
		if isOp(t, "(") {
			close := matchClose(c.toks, i)
			return splitTop(c.toks[i+1:max(close, i+1)], ",")
		}
	}
	return nil
}

// isUnittestClass reports whether a class derives from a TestCase, directly or
// through classes of this file.
func (m *module) isUnittestClass(c *stmt, depth int) bool {
	name := c.defName()
	if v, ok := m.unittestMemo[name]; ok && m.topDefs[name] == c {
		return v > 0
	}
	result := false
	for _, b := range bases(c) {
		if len(b) == 0 || (len(b) >= 2 && isOp(b[1], "=")) {
			continue // metaclass=...
		}
		last := b[len(b)-1]
		if last.kind != tkName {
			continue
		}
		if strings.HasSuffix(last.text, "TestCase") {
			result = true
			break
		}
		if base, ok := m.topDefs[last.text]; ok && base != c && base.isClass() && depth < 32 && m.isUnittestClass(base, depth+1) {
			result = true
			break
		}
	}
	if m.topDefs[name] == c {
		m.unittestMemo[name] = map[bool]int8{true: 1, false: -1}[result]
	}
	return result
}

// testClass decides whether pytest collects a class, and how.
func (m *module) testClass(c *stmt, scopes []classScope) (classScope, bool) {
	name := c.defName()
	if name == "" {
		return classScope{}, false
	}
	if len(scopes) > 0 && scopes[len(scopes)-1].unittest {
		return classScope{}, false
	}
	sc := classScope{name: name, decos: c.decos, unittest: m.isUnittestClass(c, 0)}
	if !sc.unittest {
		if !strings.HasPrefix(name, "Test") || !(m.isTest || m.usesFramework) {
			return classScope{}, false
		}
		for _, s := range c.body {
			if s.isDef() && s.defName() == "__init__" {
				return classScope{}, false
			}
		}
	}
	for _, s := range c.body {
		if s.tok(0) == "__test__" && s.tok(1) == "=" && s.tok(2) == "False" {
			return classScope{}, false
		}
	}
	sc.marks = append(decoratorMarks(c.decos), pytestmarks(c.body)...)
	sc.skip = decoratorSkip(c.decos)
	if sc.skip == nil {
		sc.skip = m.blockSkip(c.body, false)
	}
	return sc, true
}

// methods returns a class's methods, followed by those it inherits from classes
// of the same file that it does not override, in a simplified method
// resolution order (depth first, left to right).
func (m *module) methods(c *stmt) []*stmt {
	seen := map[string]bool{}
	visited := map[*stmt]bool{}
	var out []*stmt
	var visit func(c *stmt, depth int)
	visit = func(c *stmt, depth int) {
		if visited[c] || depth > 32 {
			return
		}
		visited[c] = true
		var defs []*stmt
		collectDefs(c.body, &defs)
		for _, d := range defs {
			if n := d.defName(); n != "" && !seen[n] {
				out = append(out, d)
			}
		}
		for _, d := range defs {
			seen[d.defName()] = true
		}
		for _, b := range bases(c) {
			if len(b) == 1 && b[0].kind == tkName {
				if base, ok := m.topDefs[b[0].text]; ok && base.isClass() {
					visit(base, depth+1)
				}
			}
		}
	}
	visit(c, 0)
	return out
}

// collectDefs gathers the defs of a class body, looking into if/try blocks.
func collectDefs(body []*stmt, out *[]*stmt) {
	for _, s := range body {
		switch {
		case s.isDef():
			*out = append(*out, s)
		case s.header && !s.isClass() && s.keyword() != "for" && s.keyword() != "while":
			collectDefs(s.body, out)
		}
	}
}

// testCases builds the test case(s) of one test function: one, or one per
// parametrize combination.
func (m *module) testCases(def *stmt, scopes []classScope) []testscan.TestCase {
	m.testDefs[def] = true
	name := def.defName()
	var prefix strings.Builder
	for _, sc := range scopes {
		prefix.WriteString(sc.name)
		prefix.WriteString("::")
	}
	body := def.body
	tc := testscan.TestCase{
		ID:      prefix.String() + name,
		Name:    name,
		Line:    def.startLine(),
		EndLine: def.endLine,
	}
	inside, trailing := m.bodyComments(def)
	for _, c := range append(inside, trailing...) {
		if isAssertionComment(c.text) {
			tc.CommentedAssertions++
		}
		if int(c.line) > tc.EndLine {
			tc.EndLine = int(c.line)
		}
	}
	tc.Assertions = assertions(body)
	constantArms(m.root, def, tc.Assertions)
	throughLocals(body, &tc)
	m.stubbedChecks(def, &tc)
	tc.Calls, tc.Uses, tc.Detached = m.testCalls(def, scopes)
	tc.Retries = m.retries(def, scopes)
	tc.Marks = append(decoratorMarks(def.decos), pytestmarks(m.root.body)...)
	for _, sc := range scopes {
		tc.Marks = append(tc.Marks, sc.marks...)
	}
	tc.Skip = decoratorSkip(def.decos)
	for i := len(scopes) - 1; i >= 0 && tc.Skip == nil; i-- {
		tc.Skip = scopes[i].skip
	}
	if tc.Skip == nil {
		tc.Skip = m.moduleSkip
	}
	if tc.Skip == nil {
		first := 0
		if len(tc.Assertions) > 0 {
			first = tc.Assertions[0].Line
		}
		tc.Skip = bodySkip(body, first)
		if tc.Skip == nil {
			tc.Skip = m.helperSkip(body, first)
		}
	}
	if tc.Skip != nil {
		sk := *tc.Skip
		tc.Skip = &sk
	}
	fp := fingerprintDef(def)
	tc.BodyTokens = fp.tokens
	tc.Literals = fp.literals
	tc.Fingerprint = fp.hash("")

	cases := m.parametrize(def, scopes)
	if cases == nil {
		return []testscan.TestCase{tc}
	}
	out := make([]testscan.TestCase, 0, len(cases))
	reassigned := assignedNames(body)
	for _, c := range cases {
		t := tc
		t.ID = tc.ID + "[" + c.id + "]"
		t.Name = name + "[" + c.id + "]"
		t.Dynamic = c.dynamic
		if t.Skip == nil && c.skip != nil {
			sk := *c.skip
			t.Skip = &sk
		}
		t.Fingerprint = fp.hash(c.id)
		if len(c.literals) > 0 {
			lits := append(append([]string(nil), c.literals...), tc.Literals...)
			if len(lits) > maxLiterals {
				lits = lits[:maxLiterals]
			}
			t.Literals = lits
		}
		t.Assertions = append([]testscan.Assertion(nil), tc.Assertions...)
		t.Params = caseParams(c, reassigned)
		if len(c.marks) > 0 {
			t.Marks = append(append([]string(nil), tc.Marks...), c.marks...)
		}
		out = append(out, t)
	}
	return out
}

// bodyComments returns the comments inside a definition and those trailing it
// at a deeper indentation than the def (still part of its block to a reader).
func (m *module) bodyComments(def *stmt) (inside, trailing []token) {
	if len(def.toks) == 0 {
		return nil, nil
	}
	start := def.toks[0].off
	last := def.lastTok
	if last >= len(m.toks) {
		last = len(m.toks) - 1
	}
	end := m.toks[last].end()
	next := int32(1 << 30)
	for j := last + 1; j < len(m.toks); j++ {
		if k := m.toks[j].kind; k != tkNewline && k != tkIndent && k != tkDedent {
			next = m.toks[j].off
			break
		}
	}
	i := sort.Search(len(m.comments), func(i int) bool { return m.comments[i].off > start })
	for ; i < len(m.comments); i++ {
		c := m.comments[i]
		switch {
		case c.off < end:
			inside = append(inside, c)
		case c.off < next && int(c.col) > def.col:
			trailing = append(trailing, c)
		default:
			return inside, trailing
		}
	}
	return inside, trailing
}

// retries reads the reruns of a test: @pytest.mark.flaky(reruns=N) (pytest-
// rerunfailures) or @flaky(max_runs=N) (flaky) on the function, its classes
// or the module's pytestmark.
func (m *module) retries(def *stmt, scopes []classScope) int {
	n := 0
	for _, d := range def.decos {
		n = max(n, flakyRuns(d.toks))
	}
	for _, sc := range scopes {
		for _, d := range sc.decos {
			n = max(n, flakyRuns(d.toks))
		}
	}
	for _, st := range m.root.body {
		if st.tok(0) == "pytestmark" {
			n = max(n, flakyRuns(st.toks))
		}
	}
	return n
}

// flakyRuns reads a flaky mark in toks: its reruns or max_runs, 1 without.
func flakyRuns(toks []token) int {
	for i, t := range toks {
		if t.kind != tkName || t.text != "flaky" {
			continue
		}
		if i+1 >= len(toks) || !isOp(toks[i+1], "(") {
			return 1
		}
		close := matchClose(toks, i+1)
		for j := i + 2; j+2 <= close && j+2 < len(toks); j++ {
			if toks[j].kind == tkName && (toks[j].text == "reruns" || toks[j].text == "max_runs") && isOp(toks[j+1], "=") && toks[j+2].kind == tkNumber {
				if v, err := strconv.Atoi(toks[j+2].text); err == nil {
					return v
				}
			}
		}
		return 1
	}
	return 0
}

// caseParams is a case's rows of parameter values (testscan.TestCase.Params)
// without the arguments the body assigns again.
func caseParams(c paramCase, reassigned map[string]bool) []map[string]string {
	rows := c.rows
	if c.params != nil {
		rows = []map[string]string{c.params}
	}
	out := make([]map[string]string, 0, len(rows))
	for _, r := range rows {
		row := make(map[string]string, len(r))
		for k, v := range r {
			if !reassigned[k] {
				row[k] = v
			}
		}
		out = append(out, row)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// assignedNames are the plain names a body assigns (x = ..., x += ...,
// for x in ..., with ... as x), at any depth.
func assignedNames(body []*stmt) map[string]bool {
	out := map[string]bool{}
	walk(body, func(s *stmt) bool {
		toks := s.toks
		switch {
		case s.header && s.keyword() == "for":
			for _, t := range toks[1:] {
				if t.kind == tkName && t.text == "in" {
					break
				}
				if t.kind == tkName {
					out[t.text] = true
				}
			}
		case s.header && s.keyword() == "with":
			for i := 0; i+1 < len(toks); i++ {
				if toks[i].kind == tkName && toks[i].text == "as" && toks[i+1].kind == tkName {
					out[toks[i+1].text] = true
				}
			}
		case !s.header:
			// The targets before the last top-level "=" (a, b = ...; x = y = ...).
			depth := 0
			last := -1
			for i, t := range toks {
				switch {
				case isOpener(t):
					depth++
				case isCloser(t):
					depth--
				case depth == 0 && t.kind == tkOp && (t.text == "=" || strings.HasSuffix(t.text, "=") && len(t.text) >= 2 &&
					t.text != "==" && t.text != "!=" && t.text != "<=" && t.text != ">="):
					last = i
				}
			}
			depth = 0
			for i := 0; i < last; i++ {
				t := toks[i]
				switch {
				case isOpener(t):
					depth++
				case isCloser(t):
					depth--
				case depth == 0 && t.kind == tkName && (i == 0 || !isOp(toks[i-1], ".")) && !isOp(toks[i+1], ".") && !isOp(toks[i+1], "["):
					out[t.text] = true
				}
			}
		}
		return !s.isDef() && !s.isClass()
	})
	return out
}

// decoratorMarks are the marker names of decorators: @pytest.mark.NAME or
// @mark.NAME, called or not.
func decoratorMarks(decos []*stmt) []string {
	var out []string
	for _, d := range decos {
		if len(d.toks) < 2 {
			continue
		}
		toks := d.toks[1:]
		if c, ok := asCall(toks); ok {
			toks = toks[:len(toks)-len(c.inner)-2]
		}
		name := dotted(toks)
		for _, prefix := range []string{"pytest.mark.", "mark."} {
			if rest, ok := strings.CutPrefix(name, prefix); ok && rest != "" && !strings.Contains(rest, ".") {
				out = append(out, rest)
				break
			}
		}
	}
	return out
}

// pytestmarks are the marker names a block's `pytestmark = ...` applies to
// every test in it.
func pytestmarks(body []*stmt) []string {
	var out []string
	for _, s := range body {
		if s.tok(0) == "pytestmark" && (s.tok(1) == "=" || s.tok(1) == "+=") {
			out = append(out, markTokens(s.toks[2:])...)
		}
	}
	return out
}

// markTokens are the NAMEs of every mark.NAME in toks.
func markTokens(toks []token) []string {
	var out []string
	for i := 0; i+2 < len(toks); i++ {
		if toks[i].kind == tkName && toks[i].text == "mark" && isOp(toks[i+1], ".") && toks[i+2].kind == tkName {
			out = append(out, toks[i+2].text)
		}
	}
	return out
}
