package jsts

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

const (
	maxTests    = 10000 // test cases per file; table expansion stops beyond it
	maxDepth    = 64    // nested groups followed
	maxRows     = 1000  // rows of one .each table expanded
	maxLiterals = 64
	workFactor  = 16     // group bodies may be rescanned this many times over
	workSlack   = 100000 // tokens, so small files expand every table
	idSeparator = " > "
	// emptyTitle stands for an empty title so that ids are never empty.
	emptyTitle = `""`
)

// scope is what a group passes on to the tests inside it.
type scope struct {
	prefix  []string
	dynamic bool
	skip    *testscan.Skip
	only    bool
	depth   int
	// calls are those of the setup hooks of the file and the enclosing groups.
	calls []testscan.Call
	// retries is the retry count an enclosing group's options set.
	retries int
}

// scanner walks the token tree and collects test cases.
type scanner struct {
	t     *tree
	tests []testscan.TestCase
	// helperNames are the named functions outside test calls (File.Helpers),
	// set by helperAssertions.
	helperNames []string
	ids         map[string]int
	// commentAssert caches, per comment index, whether its text is an assertion.
	commentAssert map[int]bool
	// bodies caches body facts by callback start: describe.each scans its body
	// once per row.
	bodies map[int]bodyFacts
	// work counts tokens visited; past workBudget, tables are no longer
	// expanded so nested .each groups cannot multiply the work.
	work int
	// testSpans maps the first token of each test call to the token after it.
	testSpans map[int]int
	// spans are the token spans of tests, one per test case.
	spans [][2]int
	// hooks caches the calls of a group body's setup hooks by its first token.
	hooks map[int][]testscan.Call
	// helperCalls are File.HelperCalls, set by helperAssertions.
	helperCalls map[string][]testscan.Call
}

func newScanner(t *tree) *scanner {
	return &scanner{t: t, ids: map[string]int{}, commentAssert: map[int]bool{}, bodies: map[int]bodyFacts{},
		testSpans: map[int]int{}, hooks: map[int][]testscan.Call{}}
}

// scanRange finds test and group calls in [from, to). Test bodies are not
// searched for further tests; group bodies are, with the group's scope.
func (s *scanner) scanRange(from, to int, sc scope) {
	t := s.t
	s.work += max(to-from, 0)
	for i := from; i < to; {
		if t.toks[i].Kind == tkIdent {
			if c, ok := t.parseCall(i, to); ok && s.handleCall(c, sc) {
				i = max(c.end, i+1)
				continue
			}
		}
		i++
	}
}

// title is one rendered test title; row is the normalized table row it was
// expanded from (part of the fingerprint).
type title struct {
	text    string
	dynamic bool
	row     string
}

// handleCall records a test, or scans a group's body. It reports false when the
// call turns out not to define a test (a dynamic title without a function).
func (s *scanner) handleCall(c call, sc scope) bool {
	t := s.t
	args := t.splitArgs(c.open, c.close)
	if len(args) == 0 {
		return false
	}
	text, dyn := t.titleOf(args[0][0], args[0][1])
	var fn fnInfo
	hasFn := false
	opts := -1
	for k, a := range args[1:] {
		if f, ok := t.fnAt(a[0], a[1]); ok {
			fn, hasFn = f, true
			break
		}
		if t.punct(a[0], "{") && opts < 0 {
			opts = k + 1
		}
	}
	if !hasFn && len(args) > 1 && !dyn {
		fn, hasFn = t.refAt(args[1][0], args[1][1])
	}
	if !hasFn && (dyn || c.group || strings.HasSuffix(c.base, "test") && !hasModifier(c, "todo")) {
		// Only mocha's it('title') is a pending test without a callback;
		// test('x') alone is more likely an unrelated helper call.
		return false
	}
	titles := s.titles(c, text, dyn)
	for k := range titles {
		if titles[k].text == "" {
			titles[k].text = emptyTitle
		}
	}
	own, only := s.modifierSkip(c)
	if opts >= 0 {
		o, oOnly := t.optionsSkip(args[opts][0], args[opts][1])
		if own == nil {
			own = o
		}
		only = only || oOnly
	}
	if c.group {
		if sc.depth >= maxDepth {
			return false
		}
		calls := sc.calls
		if hasFn && !fn.ref && fn.bodyOpen >= 0 {
			if hooks := s.hookCalls(fn.bodyFrom, fn.bodyTo); len(hooks) > 0 {
				calls = mergeCalls(sc.calls, hooks)
			}
		}
		retries := sc.retries
		if opts >= 0 {
			retries = max(retries, retryOption(t.normTokens(args[opts][0], args[opts][1])))
		}
		for _, ti := range titles {
			child := scope{
				prefix:  append(append([]string(nil), sc.prefix...), ti.text),
				dynamic: sc.dynamic || ti.dynamic,
				skip:    firstSkip(own, sc.skip),
				only:    sc.only || only,
				depth:   sc.depth + 1,
				calls:   calls,
				retries: retries,
			}
			s.scanRange(fn.from, fn.to, child)
		}
		return true
	}
	s.recordTest(c.start, c.end)
	var body bodyFacts
	if hasFn {
		var ok bool
		if body, ok = s.bodies[fn.from]; !ok {
			body = s.analyzeBody(fn)
			s.bodies[fn.from] = body
		}
	}
	skip := firstSkip(own, sc.skip, body.skip)
	if !hasFn && skip == nil {
		// mocha: it('title') without a callback is a pending test.
		skip = &testscan.Skip{Kind: testscan.SkipMarked, Line: t.toks[c.start].Line}
	}
	var optsNorm []string
	if opts >= 0 {
		optsNorm = t.normTokens(args[opts][0], args[opts][1])
	}
	endTok := c.close
	if !c.closed {
		endTok = c.close - 1
	}
	endTok = min(max(endTok, c.start), len(t.toks)-1)
	// The rows of a table share their calls (capped: an append copies).
	calls := body.calls
	if len(sc.calls) > 0 {
		calls = mergeCalls(sc.calls, body.calls)
	}
	calls = calls[:len(calls):len(calls)]
	for _, ti := range titles {
		if len(s.tests) >= maxTests {
			return true
		}
		tc := testscan.TestCase{
			Name:                ti.text,
			Line:                t.toks[c.start].Line,
			EndLine:             t.toks[endTok].Line,
			Skip:                copySkip(skip),
			Only:                sc.only || only,
			Dynamic:             sc.dynamic || ti.dynamic,
			Assertions:          append([]testscan.Assertion(nil), body.assertions...),
			CommentedAssertions: body.commented,
			BodyTokens:          body.tokens,
			Literals:            append([]string(nil), body.literals...),
			Fingerprint:         fingerprint(optsNorm, body.norm, ti.row),
			Calls:               calls,
			Retries:             max(sc.retries, retryOption(optsNorm)),
		}
		tc.ID = s.uniqueID(strings.Join(append(append([]string(nil), sc.prefix...), ti.text), idSeparator), tc.Dynamic)
		s.tests = append(s.tests, tc)
		s.spans = append(s.spans, [2]int{c.start, c.end})
	}
	return true
}

func hasModifier(c call, name string) bool {
	for _, m := range c.mods {
		if m.name == name {
			return true
		}
	}
	return false
}

// uniqueID appends " #n" to the n-th repetition of an id (before a trailing "*"
// of a dynamic id), since ids must be unique within a file.
func (s *scanner) uniqueID(id string, dynamic bool) string {
	s.ids[id]++
	n := s.ids[id]
	if n == 1 {
		return id
	}
	suffix := " #" + strconv.Itoa(n)
	if dynamic && strings.HasSuffix(id, "*") {
		return id + suffix + "*"
	}
	return id + suffix
}

func fingerprint(opts, body []string, row string) string {
	h := sha256.New()
	h.Write([]byte(strings.Join(opts, " ")))
	h.Write([]byte{0})
	h.Write([]byte(strings.Join(body, " ")))
	h.Write([]byte{0})
	h.Write([]byte(row))
	return hex.EncodeToString(h.Sum(nil))[:16]
}

func firstSkip(skips ...*testscan.Skip) *testscan.Skip {
	for _, s := range skips {
		if s != nil {
			return s
		}
	}
	return nil
}

func copySkip(s *testscan.Skip) *testscan.Skip {
	if s == nil {
		return nil
	}
	c := *s
	return &c
}

// titles renders the titles of a call: one, or one per row of an .each table.
func (s *scanner) titles(c call, text string, dyn bool) []title {
	t := s.t
	var each *modifier
	for k := range c.mods {
		if c.mods[k].name == "each" || c.mods[k].name == "for" {
			each = &c.mods[k]
		}
	}
	if each == nil {
		return []title{{text: text, dynamic: dyn}}
	}
	var rows []row
	ok := false
	if each.template {
		rows, ok = t.templateTable(each.from, each.to)
	} else {
		rows, ok = t.arrayTable(each.from, each.to)
	}
	overBudget := s.work > workFactor*len(t.toks)+workSlack
	if !ok || dyn || overBudget || len(rows) > maxRows || len(rows) == 0 || len(s.tests)+len(rows) > maxTests {
		return []title{{text: dynamicEachTitle(text), dynamic: true, row: t.norm(each.from, each.to)}}
	}
	objects := !each.template && allObjects(rows)
	out := make([]title, 0, len(rows))
	for k, r := range rows {
		var tt string
		if each.template || (objects && !hasPlaceholder(text)) {
			tt = interpolateVariables(text, r.value, k)
		} else {
			tt = formatTitle(text, r.value, k, allArrays(rows))
		}
		out = append(out, title{text: tt, row: r.norm})
	}
	return out
}

// titleOf renders a title argument. Literal strings, substitution-free template
// literals and concatenations of them are exact; anything else contributes "*"
// and makes the title dynamic (always ending in "*").
func (t *tree) titleOf(from, to int) (string, bool) {
	if from >= to {
		return "*", true
	}
	var b strings.Builder
	dyn, lastStar := false, false
	star := func() {
		dyn = true
		if !lastStar {
			b.WriteByte('*')
		}
		lastStar = true
	}
	for j := from; j < to; {
		switch {
		case t.kind(j) == tkString || t.kind(j) == tkTemplate:
			b.WriteString(t.toks[j].val)
			lastStar = false
			j++
		case t.kind(j) == tkTemplateHead:
			b.WriteString(t.toks[j].val)
			lastStar = false
			k := j
			for {
				m := int(t.match[k])
				star() // the substitution
				if m <= k || m >= to {
					k = to
					break
				}
				if v := t.toks[m].val; v != "" {
					b.WriteString(v)
					lastStar = false
				}
				if t.kind(m) == tkTemplateTail {
					k = m + 1
					break
				}
				k = m
			}
			j = k
		default:
			// A non-literal operand: skip to the next top-level "+".
			k := j
			for k < to && !t.punct(k, "+") {
				k = t.skip(k, to)
			}
			star()
			j = k
		}
		if j < to && t.punct(j, "+") {
			j++
			continue
		}
		if j < to {
			// Not a plain concatenation (a call, a ternary...): dynamic rest.
			star()
			break
		}
	}
	out := b.String()
	if dyn && !strings.HasSuffix(out, "*") {
		out += "*"
	}
	return out, dyn
}

// modifierSkip derives the skip state and focus of a call from its modifiers.
func (s *scanner) modifierSkip(c call) (*testscan.Skip, bool) {
	t := s.t
	var skip *testscan.Skip
	only := false
	set := func(kind testscan.SkipKind, tok int) {
		if skip == nil {
			skip = &testscan.Skip{Kind: kind, Line: t.toks[tok].Line}
		}
	}
	for _, m := range c.mods {
		switch m.name {
		case "skip", "fixme":
			set(testscan.SkipMarked, m.tok)
		case "todo":
			set(testscan.SkipTodo, m.tok)
		case "failing", "fails":
			set(testscan.SkipXFail, m.tok)
		case "only":
			only = true
		case "skipIf", "runIf":
			lit := ""
			if m.to == m.from+1 {
				lit = t.toks[m.from].Text
			}
			switch {
			case lit == "true" && m.name == "skipIf", lit == "false" && m.name == "runIf":
				set(testscan.SkipMarked, m.tok)
			case lit == "false" && m.name == "skipIf", lit == "true" && m.name == "runIf":
			default:
				set(testscan.SkipConditional, m.tok)
				if skip != nil && skip.Kind == testscan.SkipConditional && t.readsEnv(m.from, m.to) {
					skip.EnvGuard = true // skipIf(process.env.CI): skipped where the gate runs
				}
				if skip != nil && skip.Kind == testscan.SkipConditional {
					skip.Platform = t.platformCond(m.from, m.to, m.name == "runIf")
				}
			}
		}
	}
	return skip, only
}

// readsEnv reports a process.env read among the tokens [from, to).
func (t *tree) readsEnv(from, to int) bool {
	for k := from; k+2 < to; k++ {
		if t.ident(k, "process") && t.punct(k+1, ".") && t.ident(k+2, "env") {
			return true
		}
	}
	return false
}

// optionsSkip reads a node:test options object: { skip: true | 'reason' | cond,
// todo: ..., only: true }.
func (t *tree) optionsSkip(from, to int) (*testscan.Skip, bool) {
	if !t.punct(from, "{") {
		return nil, false
	}
	close := t.closeOf(from, to)
	var skip *testscan.Skip
	only := false
	for _, p := range t.splitArgs(from, close) {
		k := p[0]
		key := ""
		switch t.kind(k) {
		case tkIdent:
			key = t.toks[k].Text
		case tkString:
			key = t.toks[k].val
		}
		if key == "" {
			continue
		}
		var vfrom = p[1]
		if t.punct(k+1, ":") {
			vfrom = k + 2
		} else if p[1] != k+1 {
			continue
		}
		lit, val := "", ""
		if vfrom == p[1] { // shorthand { skip }
			lit = "?"
		} else if p[1] == vfrom+1 {
			lit = t.toks[vfrom].Text
			if t.kind(vfrom) == tkString || t.kind(vfrom) == tkTemplate {
				lit, val = "string", t.toks[vfrom].val
			}
		}
		if key == "only" {
			only = only || lit == "true"
			continue
		}
		kind := testscan.SkipMarked
		switch key {
		case "skip":
		case "todo":
			kind = testscan.SkipTodo
		default:
			continue
		}
		if skip != nil {
			continue
		}
		switch lit {
		case "true", "string":
			skip = &testscan.Skip{Kind: kind, Reason: val, Line: t.toks[k].Line}
		case "false", "undefined", "null", "0":
		default:
			skip = &testscan.Skip{Kind: testscan.SkipConditional, Line: t.toks[k].Line}
		}
	}
	return skip, only
}

// retryOption reads `retry: N` from a test's or group's options object
// (vitest, and jest's circus through test options).
func retryOption(norm []string) int {
	for i := 0; i+2 < len(norm); i++ {
		if (norm[i] == "retry" || norm[i] == `"retry"` || norm[i] == "retries") && norm[i+1] == ":" {
			if n, err := strconv.Atoi(norm[i+2]); err == nil {
				return n
			}
		}
	}
	return 0
}

// applyRetries reads jest.retryTimes(N) and mocha's this.retries(N): in a
// test's body they set its own count; elsewhere they set the count of the
// tests after them.
func (s *scanner) applyRetries() {
	t := s.t
	for k := range t.toks {
		if !(t.ident(k, "retryTimes") || t.ident(k, "retries")) || !t.punct(k-1, ".") || !t.punct(k+1, "(") || t.kind(k+2) != tkNumber {
			continue
		}
		n, err := strconv.Atoi(t.toks[k+2].Text)
		if err != nil {
			continue
		}
		inside := false
		for i, sp := range s.spans {
			if k > sp[0] && k < sp[1] {
				s.tests[i].Retries = max(s.tests[i].Retries, n)
				inside = true
			}
		}
		if inside {
			continue
		}
		for i, sp := range s.spans {
			if sp[0] > k {
				s.tests[i].Retries = max(s.tests[i].Retries, n)
			}
		}
	}
}

// platformCond reads a condition on the operating system alone between
// tokens from and to: `process.platform === 'linux'` (or `==`, `!==`,
// `!=`, either side first). It returns the system a skip under it skips
// on, or "!" and the one it does not skip on (runIf: the condition says
// where the test runs); "" for any other condition.
func (t *tree) platformCond(from, to int, runIf bool) string {
	if to-from != 5 {
		return ""
	}
	i, lit := from, from+4
	if t.kind(from) == tkString {
		i, lit = from+2, from
	}
	if !t.ident(i, "process") || !t.punct(i+1, ".") || !t.ident(i+2, "platform") || t.kind(lit) != tkString {
		return ""
	}
	op := t.toks[from+3].Text
	if t.kind(from) == tkString {
		op = t.toks[from+1].Text
	}
	neg := false
	switch op {
	case "===", "==":
	case "!==", "!=":
		neg = true
	default:
		return ""
	}
	p := testscan.PlatformOf(t.toks[lit].Text)
	if p == "" {
		return ""
	}
	if neg != runIf {
		return "!" + p
	}
	return p
}
