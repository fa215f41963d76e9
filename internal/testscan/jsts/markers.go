package jsts

import (
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/clex"
)

// suppressions returns the checker-silencing comments and the swallowed errors
// (empty catch blocks, promise .catch with a no-op handler) in source order
// and, read in the same pass, the placeholders (File.Placeholders): the
// comments that start with TODO, FIXME or XXX, then the throw statements that
// say the code is not written.
func (t *tree) suppressions() (out, placeholders []testscan.Marker) {
	var throws []testscan.Marker
	ci := 0
	addComments := func(upTo int) {
		for ; ci < len(t.comments) && t.comments[ci].off < upTo; ci++ {
			body := commentBody(t.comments[ci].text)
			if kind, text := directive(body); kind != "" {
				out = append(out, testscan.Marker{Line: t.comments[ci].line, Kind: kind, Text: text})
			}
			if text, ok := testscan.TodoComment(body); ok {
				placeholders = append(placeholders, testscan.Marker{Line: t.comments[ci].line, Kind: "todo-comment", Text: text})
			}
		}
	}
	for i := range t.toks {
		if t.toks[i].Kind != tkIdent {
			continue
		}
		if t.toks[i].Text == "throw" {
			if text, ok := t.placeholderThrow(i); ok {
				throws = append(throws, testscan.Marker{Line: t.toks[i].Line, Kind: "not-implemented", Text: text})
			}
			continue
		}
		if t.toks[i].Text != "catch" {
			continue
		}
		addComments(int(t.toks[i].Off))
		if t.isMember(i) {
			if t.swallowingCatch(i) {
				out = append(out, testscan.Marker{Line: t.toks[i].Line, Kind: "swallowed-error", Text: ".catch"})
			}
			continue
		}
		k := i + 1
		if t.punct(k, "(") {
			k = t.skip(k, len(t.toks))
		}
		if t.punct(k, "{") && int(t.match[k]) == k+1 {
			out = append(out, testscan.Marker{Line: t.toks[i].Line, Kind: "empty-catch", Text: "catch"})
		}
	}
	addComments(len(t.src) + 1)
	if len(placeholders) == 0 {
		return out, throws
	}
	return out, append(placeholders, throws...)
}

// placeholderThrow reads the throw statement at i when it stands in for code
// not written: `throw new Error("not implemented")`, `throw Error('TODO')`,
// throw new errors.XError(`stub ${name}`) (any constructor, dotted or not,
// with or without new) whose first argument starts with a string or template
// literal that says so (testscan.PlaceholderMessage), or `throw "TODO"`. It
// returns the statement's normalized text.
func (t *tree) placeholderThrow(i int) (string, bool) {
	if t.isMember(i) {
		return "", false // generator.throw(...)
	}
	j := i + 1
	switch t.kind(j) {
	case tkString, tkTemplate, tkTemplateHead:
		if !testscan.PlaceholderMessage(t.toks[j].val) {
			return "", false
		}
		return "throw " + t.norm(j, t.skip(j, len(t.toks))), true
	case tkIdent:
	default:
		return "", false
	}
	if t.ident(j, "new") {
		j++
	}
	if t.kind(j) != tkIdent {
		return "", false
	}
	for t.punct(j+1, ".") && t.kind(j+2) == tkIdent {
		j += 2
	}
	open := j + 1
	if !t.punct(open, "(") || !t.matched(open, len(t.toks)) {
		return "", false
	}
	if k := t.kind(open + 1); k != tkString && k != tkTemplate && k != tkTemplateHead || !testscan.PlaceholderMessage(t.toks[open+1].val) {
		return "", false
	}
	return t.norm(i, int(t.match[open])+1), true
}

// directive classifies a comment body as a suppression directive and returns
// its normalized text.
func directive(body string) (kind, text string) {
	switch {
	case hasWord(body, "@ts-ignore"):
		return "ts-ignore", "@ts-ignore"
	case hasWord(body, "@ts-expect-error"):
		return "ts-expect-error", "@ts-expect-error"
	case hasWord(body, "@ts-nocheck"):
		return "ts-nocheck", "@ts-nocheck"
	}
	fields := strings.Fields(body)
	if len(fields) == 0 {
		return "", ""
	}
	switch fields[0] {
	case "eslint-disable", "eslint-disable-line", "eslint-disable-next-line":
		rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(body), fields[0]))
		if cut := strings.Index(rest, "--"); cut >= 0 && (cut == 0 || rest[cut-1] == ' ' || rest[cut-1] == '\n') {
			rest = rest[:cut]
		}
		var rules []string
		for _, r := range strings.Split(rest, ",") {
			if r = strings.Join(strings.Fields(r), " "); r != "" {
				rules = append(rules, r)
			}
		}
		if len(rules) == 0 {
			return "eslint-disable", fields[0]
		}
		return "eslint-disable", fields[0] + " " + strings.Join(rules, ", ")
	case "istanbul", "c8", "v8":
		if len(fields) < 2 || fields[1] != "ignore" {
			return "", ""
		}
		n := min(len(fields), 3)
		if n == 3 {
			fields[2] = strings.TrimRight(fields[2], ":")
			if fields[2] == "stop" {
				return "", ""
			}
			if len(fields) > 3 && isNumber(fields[3]) {
				n = 4
			}
		}
		return "coverage-ignore", strings.Join(fields[:n], " ")
	}
	return "", ""
}

// hasWord reports whether body starts with directive as a whole word.
func hasWord(body, directive string) bool {
	if !strings.HasPrefix(body, directive) {
		return false
	}
	rest := body[len(directive):]
	return rest == "" || !ident.StartByte(rest[0]) && !clex.IsDigit(rest[0]) && rest[0] != '-'
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !clex.IsDigit(s[i]) {
			return false
		}
	}
	return true
}

// swallowingCatch reports whether .catch at i gets a handler that drops the
// error: () => {}, (e) => undefined/null/void 0, function () {}, noop.
func (t *tree) swallowingCatch(i int) bool {
	open := i + 1
	if !t.punct(open, "(") || !t.matched(open, len(t.toks)) {
		return false
	}
	args := t.splitArgs(open, int(t.match[open]))
	if len(args) != 1 {
		return false
	}
	from, to := args[0][0], args[0][1]
	if f, ok := t.fnAt(from, to); ok {
		if f.bodyOpen >= 0 {
			return f.bodyTo == f.bodyOpen+1
		}
		n := f.bodyTo - f.bodyFrom
		return n == 1 && (t.ident(f.bodyFrom, "undefined") || t.ident(f.bodyFrom, "null")) ||
			n == 2 && t.ident(f.bodyFrom, "void") && t.kind(f.bodyFrom+1) == tkNumber
	}
	last := t.toks[to-1].Text
	return t.kind(to-1) == tkIdent && (last == "noop" || strings.HasSuffix(last, "Noop") ||
		last == "prototype" && to-from == 3 && t.ident(from, "Function"))
}

// bypasses finds process.exit() and process.exit(0): a test file or runner
// setup that exits early reports success without running the suite.
func (t *tree) bypasses() []testscan.Marker {
	return append(t.exits(false), t.hookSkips()...)
}

// hookSkips finds setup hooks that skip the tests they run for: a
// beforeEach or beforeAll (vitest's, or test.beforeEach) whose callback
// calls the context's skip (`(ctx) => ctx.skip()`, `({ skip }) => skip()`)
// or sets a task's mode to skip or todo. A test file's and a setup file's
// alike: vitest reports each test it reaches skipped, none of them carrying
// a skip of its own.
func (t *tree) hookSkips() []testscan.Marker {
	var out []testscan.Marker
	n := len(t.toks)
	for i := range t.toks {
		if !(t.ident(i, "beforeEach") || t.ident(i, "beforeAll")) || !t.punct(i+1, "(") ||
			t.isMember(i) && !(t.ident(i-2, "test") || t.ident(i-2, "it") || t.ident(i-2, "describe")) {
			continue
		}
		close := t.closeOf(i+1, n)
		skips := false
		for k := i + 2; k < close && k < n && !skips; k++ {
			switch {
			case t.ident(k, "skip") && t.punct(k+1, "(") && (!t.isMember(k) || t.kind(k-2) == tkIdent && !t.ident(k-2, "describe") && !t.ident(k-2, "it") && !t.ident(k-2, "test")):
				skips = true
			case t.ident(k, "mode") && t.isMember(k) && t.punct(k+1, "=") && t.kind(k+2) == tkString:
				v := unquote(t.toks[k+2].Text)
				skips = v == "skip" || v == "todo"
			}
		}
		if skips {
			out = append(out, testscan.Marker{Line: t.toks[i].Line, Kind: "hook-skip", Text: t.toks[i].Text + " skips the tests it runs for"})
		}
	}
	return out
}

// exits finds process.exit() and process.exit(0); topOnly keeps those at a
// module's top level (run when a test imports the module).
func (t *tree) exits(topOnly bool) []testscan.Marker {
	var out []testscan.Marker
	for i := range t.toks {
		if topOnly && t.parent[i] >= 0 {
			continue
		}
		if !t.ident(i, "process") || t.isMember(i) || !t.punct(i+1, ".") || !t.ident(i+2, "exit") || !t.punct(i+3, "(") {
			continue
		}
		close := t.closeOf(i+3, len(t.toks))
		switch {
		case close == i+4 && t.punct(close, ")"):
			out = append(out, testscan.Marker{Line: t.toks[i].Line, Kind: "forced-exit", Text: "process.exit()"})
		case close == i+5 && t.is(i+4, tkNumber, "0"):
			out = append(out, testscan.Marker{Line: t.toks[i].Line, Kind: "forced-exit", Text: "process.exit(0)"})
		}
	}
	return out
}

// noopMatchers finds the custom matchers of expect.extend calls that can
// only pass (see alwaysPass), one marker each: a matcher that computes its
// verdict has `pass: received === expected` or a `pass: false` branch. One
// such matcher among real ones is as much a bypass as a call of them alone.
func noopMatchers(pass []passMatcher) []testscan.Marker {
	var out []testscan.Marker
	for _, m := range pass {
		out = append(out, testscan.Marker{Line: m.line, Kind: "noop-matcher", Text: "expect.extend(...) whose matcher " + m.name + " always passes"})
	}
	return out
}

// passMatcher is a custom matcher that always passes.
type passMatcher struct {
	name string
	line int
}

// alwaysPass returns the matchers, among the members of the objects
// passed to expect.extend, whose every `pass:` is the literal true (at
// least one): `toX() { return { pass: true, message } }`, `toX: (r) => ({
// pass: true })`.
func (t *tree) alwaysPass() []passMatcher {
	var out []passMatcher
	n := len(t.toks)
	for i := range t.toks {
		if !t.ident(i, "expect") || t.isMember(i) || !t.punct(i+1, ".") || !t.ident(i+2, "extend") || !t.punct(i+3, "(") || !t.punct(i+4, "{") {
			continue
		}
		obj := t.closeOf(i+4, n)
		for _, m := range t.splitArgs(i+4, obj) {
			from, to := m[0], m[1]
			if from >= to || t.kind(from) != tkIdent && t.kind(from) != tkString {
				continue
			}
			name := unquote(t.toks[from].Text)
			passes, always := 0, true
			for k := from + 1; k < to; k++ {
				if t.ident(k, "pass") && t.punct(k+1, ":") {
					passes++
					if !t.ident(k+2, "true") || !(t.punct(k+3, ",") || t.punct(k+3, "}")) {
						always = false
					}
				}
			}
			if passes > 0 && always && isJestMatcher(name) {
				out = append(out, passMatcher{name, t.toks[from].Line})
			}
		}
	}
	return out
}

// passingChecks makes trivial the checks that use a matcher of the file
// that always passes (alwaysPass): `expect(x).toBeJestCompatible()` can
// not fail, so losing it checks nothing less, and putting it in place of
// a real check checks nothing.
func passingChecks(matchers []passMatcher, tests []testscan.TestCase) {
	if len(matchers) == 0 {
		return
	}
	pass := map[string]bool{}
	for _, m := range matchers {
		pass[m.name] = true
	}
	for ti := range tests {
		for i := range tests[ti].Assertions {
			if a := &tests[ti].Assertions[i]; pass[a.Kind] {
				a.Strength = testscan.Trivial
			}
		}
	}
}
