package jsts

import (
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// maxTernaryScan bounds the forward search for the "?" of a ternary.
const maxTernaryScan = 256

// maxParenWalk bounds the enclosing parentheses searched for an if/while.
const maxParenWalk = 32

// comparisons returns the literal operands of ===, ==, !== and != inside if and
// while conditions and ternary tests, and the literals of case clauses.
// Trivial literals (0, 1, -1, "") and typeof checks are left out.
func (t *tree) comparisons() []testscan.Marker {
	var out []testscan.Marker
	n := len(t.toks)
	add := func(tok int, text string) {
		if !trivialLiteral(text) {
			out = append(out, testscan.Marker{Line: t.toks[tok].Line, Kind: "literal", Text: text})
		}
	}
	for i := range t.toks {
		tk := &t.toks[i]
		if tk.Kind == tkIdent && tk.Text == "case" && !t.isMember(i) {
			if text, next, ok := t.literalText(i+1, n); ok && t.punct(next, ":") {
				from := len(out)
				add(i+1, text)
				if len(out) > from && t.ident(next+1, "return") {
					if v, after, ok := t.literalText(next+2, n); ok && !t.continuesOperand(after) {
						out[from].Value = v
					}
				}
			}
			continue
		}
		if tk.Kind != tkPunct {
			continue
		}
		switch tk.Text {
		case "===", "==", "!==", "!=":
		default:
			continue
		}
		if !t.inCondition(i) {
			continue
		}
		from := len(out)
		if text, next, ok := t.literalText(i+1, n); ok && !t.continuesOperand(next) {
			start := t.subjectStart(i-1, int(t.parent[i])+1)
			if !t.ident(start-1, "typeof") {
				add(i+1, text)
			}
		}
		if text, at, ok := t.leftLiteral(i); ok && !t.ident(i+1, "typeof") {
			add(at, text)
		}
		if len(out) > from {
			ret := t.ifReturns(i)
			for j := from; j < len(out); j++ {
				out[j].Value = ret
			}
		}
	}
	return out
}

// ifReturns is the literal returned at once by the if whose condition holds
// the token at i (`if (s === 'x') return 42;`, `if (...) { return 'y'; }`),
// "" when there is none.
func (t *tree) ifReturns(i int) string {
	n := len(t.toks)
	for p, depth := int(t.parent[i]), 0; p >= 0 && t.punct(p, "(") && depth < maxParenWalk; p, depth = int(t.parent[p]), depth+1 {
		if !t.ident(p-1, "if") {
			continue
		}
		k := int(t.match[p]) + 1
		if k <= 0 || k >= n {
			return ""
		}
		if t.punct(k, "{") {
			k++
		}
		if !t.ident(k, "return") {
			return ""
		}
		if text, next, ok := t.literalText(k+1, n); ok && !t.continuesOperand(next) {
			return text
		}
		return ""
	}
	return ""
}

// continuesOperand reports whether the token at k extends the operand before it
// ('x'.length, 1 + y), so that the literal alone is not the compared value.
func (t *tree) continuesOperand(k int) bool {
	if t.kind(k) != tkPunct {
		return false
	}
	switch t.toks[k].Text {
	case ".", "?.", "[", "(", "+", "-", "*", "/", "%", "**":
		return true
	}
	return false
}

// leftLiteral reads a literal operand ending just before the operator at i.
func (t *tree) leftLiteral(i int) (string, int, bool) {
	k := i - 1
	switch t.kind(k) {
	case tkString, tkTemplate, tkNumber:
	default:
		return "", 0, false
	}
	text := t.normTok(k)
	prev := k - 1
	if t.kind(k) == tkNumber && t.punct(prev, "-") {
		switch t.kind(prev - 1) {
		case tkIdent, tkNumber, tkString, tkTemplate, tkTemplateTail:
			return "", 0, false
		}
		if c := t.closer(prev - 1); c == '(' || c == '[' {
			return "", 0, false
		}
		return "-" + text, k, true
	}
	if t.continuesOperand(prev) && !t.punct(prev, "(") && !t.punct(prev, "[") {
		return "", 0, false
	}
	return text, k, true
}

// inCondition reports whether the operator at i is part of an if/while
// condition or the test of a ternary.
func (t *tree) inCondition(i int) bool {
	for p, depth := int(t.parent[i]), 0; p >= 0 && t.punct(p, "(") && depth < maxParenWalk; p, depth = int(t.parent[p]), depth+1 {
		if t.ident(p-1, "if") || t.ident(p-1, "while") {
			return true
		}
	}
	n := len(t.toks)
	for k, steps := i+1, 0; k < n && steps < maxTernaryScan; steps++ {
		if t.closer(k) != 0 {
			return false
		}
		if t.kind(k) == tkPunct {
			switch t.toks[k].Text {
			case "?":
				return true
			case ";", ",", ":", "=", "=>", "{":
				return false
			}
		}
		k = t.skip(k, n)
	}
	return false
}

// trivialLiteral reports the literals that carry no information: 0, 1, -1, "".
func trivialLiteral(text string) bool {
	if text == `""` {
		return true
	}
	if strings.HasPrefix(text, `"`) {
		return false
	}
	neg := strings.HasPrefix(text, "-")
	v, ok := parseNumber(strings.TrimPrefix(text, "-"))
	if !ok || v.kind != vNumber {
		return false
	}
	return v.num == 0 || v.num == 1 && !neg || v.num == 1 && neg
}

// testGlobals are the globals a JavaScript test runner defines.
var testGlobals = map[string]bool{"jest": true, "vi": true, "jasmine": true, "mocha": true, "describe": true, "it": true, "expect": true}

// underTestEnv are environment variables only test runners set.
var underTestEnv = map[string]bool{"JEST_WORKER_ID": true, "VITEST": true, "VITEST_WORKER_ID": true, "VITEST_POOL_ID": true}

// underTest finds production code asking whether it runs under a test
// runner: process.env.NODE_ENV compared with 'test', the variables only
// jest and vitest set (process.env.JEST_WORKER_ID, process.env.VITEST) and
// the conventional test-mode ones (process.env.TESTING), a test runner's
// global (typeof jest), Vite's import.meta.env.MODE === 'test'.
func (t *tree) underTest() []testscan.Marker {
	var out []testscan.Marker
	n := len(t.toks)
	kindAt := func(i int) string {
		if t.cannedBranch(i) {
			return "under-test-canned"
		}
		return "under-test"
	}
	isTest := func(j int) bool {
		text, _, ok := t.literalText(j, n)
		return ok && strings.Trim(text, `"'`+"`") == "test"
	}
	// Only equality: `!== 'test'` guards a side effect (logging,
	// telemetry) that tests turn off, which is no special case of a
	// result.
	cmp := func(j int) bool { return t.punct(j, "===") || t.punct(j, "==") }
	for i := 0; i+1 < n; i++ {
		switch {
		case t.ident(i, "typeof") && t.kind(i+1) == tkIdent && testGlobals[t.toks[i+1].Text] && !t.punct(i+2, ".") && t.inCondition(i):
			// typeof jest !== 'undefined': a test runner's global is there.
			out = append(out, testscan.Marker{Line: t.toks[i].Line, Kind: kindAt(i), Text: "typeof " + t.toks[i+1].Text})
		case t.ident(i, "import") && t.punct(i+1, ".") && t.ident(i+2, "meta") && t.punct(i+3, ".") && t.ident(i+4, "env") &&
			t.punct(i+5, ".") && t.kind(i+6) == tkIdent && t.inCondition(i):
			// Vite's import.meta.env: MODE === 'test', or VITEST. (import.meta.vitest,
			// in-source tests, defines tests rather than branching.)
			name := t.toks[i+6].Text
			if name == "VITEST" || testscan.TestModeVar(name) || name == "MODE" && (cmp(i+7) && isTest(i+8) || i >= 2 && cmp(i-1) && isTest(i-2)) {
				out = append(out, testscan.Marker{Line: t.toks[i].Line, Kind: kindAt(i), Text: "import.meta.env." + name})
			}
		}
	}
	for i := 0; i+4 < n; i++ {
		if !t.ident(i, "process") || !t.punct(i+1, ".") || !t.ident(i+2, "env") || !t.punct(i+3, ".") || t.kind(i+4) != tkIdent {
			continue
		}
		if i > 0 && t.punct(i-1, ".") {
			continue // x.process.env: not the global
		}
		name := t.toks[i+4].Text
		// A branch on it (if, while, a ternary): a flag assigned for
		// quieter logs (`var silent = NODE_ENV === 'test'`) is no special
		// case of a result.
		if !t.inCondition(i) {
			continue
		}
		kind := kindAt(i)
		if underTestEnv[name] || testscan.TestModeVar(name) {
			out = append(out, testscan.Marker{Line: t.toks[i].Line, Kind: kind, Text: "process.env." + name})
			continue
		}
		if name != "NODE_ENV" {
			continue
		}
		// process.env.NODE_ENV === 'test', or 'test' === process.env.NODE_ENV.
		if (cmp(i+5) && isTest(i+6)) || (i >= 2 && cmp(i-1) && isTest(i-2)) {
			out = append(out, testscan.Marker{Line: t.toks[i].Line, Kind: kind, Text: "process.env.NODE_ENV === 'test'"})
		}
	}
	return out
}

// cannedBranch reports whether token i sits in an if condition whose branch
// starts by returning a literal: `if (cond) return 42;`, `if (cond) {
// return 'ok'; }`: a canned answer rather than a different way to compute.
func (t *tree) cannedBranch(i int) bool {
	p := int(t.parent[i])
	for depth := 0; p >= 0 && t.punct(p, "(") && depth < maxParenWalk; depth++ {
		if t.ident(p-1, "if") {
			break
		}
		p = int(t.parent[p])
	}
	if p < 0 || !t.punct(p, "(") || !t.ident(p-1, "if") {
		return false
	}
	k := int(t.match[p]) + 1
	if k <= 0 || k >= len(t.toks) {
		return false
	}
	if t.punct(k, "{") {
		k++
	}
	if !t.ident(k, "return") {
		return false
	}
	n := len(t.toks)
	if _, next, ok := t.literalText(k+1, n); ok {
		return next >= n || t.punct(next, ";") || t.punct(next, "}")
	}
	return k+1 < n && t.kind(k+1) == tkIdent && constKeywords[t.toks[k+1].Text]
}
