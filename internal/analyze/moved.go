package analyze

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// spareCheck is a check that the calls at the new side newly reach: it can
// stand in for a check the test (or helper) gave up.
type spareCheck struct {
	key   string
	x     testscan.Assertion
	words map[string]bool // operandWords of x
	left  int             // runs not yet taken by a lost check
	runs  int             // runs the calls newly reach
	// slots counts the lost checks folded into each place of x's
	// expected text (by offset in its templateShape): a place holds one
	// per run.
	slots map[int]int
}

// standIns returns the checks of lost that no newly reached check stands
// in for. reached counts, by assertKey, how many more times the new calls
// reach a check than the old ones did; sc is the new side's scope.
//
// A check moved into a helper rarely keeps its text: its operands take the
// helper's parameter names. So, one for one, a lost check is taken by a
// newly reached check with the same assertKey, then the same check on
// another variable (looseKey), then (reworded) one about the same values
// (its operands share a name with the lost check's: `Ready(port)` in both
// require.Eventually, "beforeAll" in toHaveLength and toHaveCount) that is
// at least as strong, of the same kind first. Last, several lost checks of
// one kind folded into one check of the helper about the same values
// (toContainText("17 Pass"), ("2 Fail") become one
// toContainText(`${pass} Pass ${fail} Fail`)) count as moved when the
// helper's text fills each of their numbers in from a parameter (see
// foldsInto). Reworded and folded checks are reported at medium by
// compareReach (see rewordedFinding). A newly reached check about other
// values stands in for nothing, however strong: an agent that drops a
// test's checks and has a new helper assert something else has moved
// nothing. A helper that checks nothing, or that is never called, reaches
// nothing.
func (cr *callReach) standIns(lost []testscan.Assertion, reached map[string]int, sc *callScope, newCalls []testscan.Call) []testscan.Assertion {
	samples := map[string]testscan.Assertion{}
	_, helpers := sc.reachHelpers(newCalls)
	for h := range helpers {
		for _, x := range sc.asserts[h] {
			samples[assertKey(x)] = x
		}
	}
	var spares []*spareCheck
	for k, v := range reached {
		if x, ok := samples[k]; ok && v > 0 {
			spares = append(spares, &spareCheck{key: k, x: x, words: operandWords(x), left: v, runs: v})
		}
	}
	if len(spares) == 0 {
		return lost
	}
	sort.Slice(spares, func(i, j int) bool { return spares[i].key < spares[j].key })
	asStrong := func(x testscan.Assertion, s *spareCheck) bool {
		return s.x.Negated == x.Negated && s.x.Strength >= x.Strength && s.x.Strength > testscan.Trivial && !opposed(x.Subject, s.x.Subject)
	}
	passes := []struct {
		loose bool
		match func(x testscan.Assertion, k string, s *spareCheck) bool
	}{
		{false, func(_ testscan.Assertion, k string, s *spareCheck) bool { return s.key == k }},
		{false, func(_ testscan.Assertion, k string, s *spareCheck) bool {
			lk := looseKey(k)
			return lk != "" && looseKey(s.key) == lk
		}},
		{false, func(x testscan.Assertion, _ string, s *spareCheck) bool {
			return asStrong(x, s) && passedTo(x, s.x, sc, newCalls)
		}},
		{true, func(x testscan.Assertion, _ string, s *spareCheck) bool {
			return s.x.Kind == x.Kind && asStrong(x, s)
		}},
		{true, func(x testscan.Assertion, _ string, s *spareCheck) bool { return asStrong(x, s) }},
	}
	left := lost
	var loose []looseCredit
	for _, p := range passes {
		var kept []testscan.Assertion
		for _, x := range left {
			k := assertKey(x)
			var words map[string]bool
			if p.loose {
				words = operandWords(x)
			}
			// The spare about the most of the lost check's values takes it.
			var best *spareCheck
			bestShared := 0
			for _, s := range spares {
				if s.left == 0 || !p.match(x, k, s) {
					continue
				}
				if !p.loose {
					best = s
					break
				}
				if n := shared(words, s.words); n > bestShared {
					best, bestShared = s, n
				}
			}
			if best == nil {
				kept = append(kept, x)
				continue
			}
			best.left--
			if p.loose {
				// The check takes its place in a combined text, if any.
				best.fold(x.Expected)
				loose = append(loose, looseCredit{x, best.x.Kind})
			}
		}
		left = kept
		if len(left) == 0 {
			break
		}
	}
	var kept []testscan.Assertion
	for _, x := range left {
		words := operandWords(x)
		into := false
		for _, s := range spares {
			if s.x.Kind == x.Kind && asStrong(x, s) && shared(words, s.words) > 0 && s.fold(x.Expected) {
				into = true
				break
			}
		}
		if into {
			loose = append(loose, looseCredit{x, x.Kind}) // folded into a check of its own kind
			continue
		}
		kept = append(kept, x)
	}
	kept, loose = cr.undoDoubleCredit(kept, loose)
	if len(loose) > 0 {
		cr.noteReworded(newCalls, len(loose))
	}
	return kept
}

// passedTo reports whether the helper check y is about a parameter that a
// new call of its helper passes the value the lost check x was about: x's
// subject, or what it was assigned from (`if err := c.Create(); err !=
// nil { t.Fatal(err) }` -> assertNoErr(t, c.Create()), whose check is on
// its parameter e). A helper handed another value (nil, another call, a
// variable assigned from another call) checks something else.
func passedTo(x, y testscan.Assertion, sc *callScope, newCalls []testscan.Call) bool {
	if len(y.Origin) < 2 || y.Origin[0] != '$' || y.Helper == "" {
		return false
	}
	i, err := strconv.Atoi(y.Origin[1:])
	if err != nil {
		return false
	}
	v := x.Origin
	if v == "" || v[0] == '$' {
		v = x.Subject
	}
	if v == "" {
		return false
	}
	for _, c := range newCalls {
		if len(c.Values) == 0 || !slices.Contains(sc.resolve(c.Name), y.Helper) {
			continue
		}
		for _, vals := range c.Values {
			if i < len(vals) && vals[i] == v {
				return true
			}
		}
	}
	return false
}

// looseCredit is a lost check that a newly reached check of kind took in
// other words or folded.
type looseCredit struct {
	x    testscan.Assertion
	kind string
}

// undoDoubleCredit gives back the loose credits that movedToHelpers
// (assertions.go) would count twice: it takes a lost check as moved when
// a helper check of its kind was gained anywhere in the change, so a
// gained check of kind K that took one lost check in other words would
// take another lost check of kind K there again. While a check of a kind
// with a gain is still lost, the loose credits of that kind's checks are
// undone, and movedToHelpers alone counts them, as it did before.
func (cr *callReach) undoDoubleCredit(kept []testscan.Assertion, loose []looseCredit) ([]testscan.Assertion, []looseCredit) {
	if len(loose) == 0 {
		return kept, loose
	}
	gain := cr.kindGain()
	lostKinds := map[string]bool{}
	for _, x := range kept {
		lostKinds[x.Kind] = true
	}
	for changed := true; changed; {
		changed = false
		still := loose[:0]
		for _, c := range loose {
			if gain[c.kind] > 0 && lostKinds[c.kind] {
				kept = append(kept, c.x)
				lostKinds[c.x.Kind] = true
				changed = true
				continue
			}
			still = append(still, c)
		}
		loose = still
	}
	return kept, loose
}

// kindGain is helperGain of the change, counted once.
func (cr *callReach) kindGain() map[string]int {
	if cr.gain == nil {
		cr.gain = helperGain(cr.pairs)
	}
	return cr.gain
}

// genericWords are names that say nothing of what a check is about: the
// words of the languages and test libraries, and the usual names of a
// result.
var genericWords = map[string]bool{
	"func": true, "function": true, "return": true, "bool": true, "true": true, "false": true,
	"nil": true, "null": true, "none": true, "undefined": true, "await": true, "async": true,
	"const": true, "let": true, "var": true, "new": true, "this": true, "self": true,
	"err": true, "error": true, "len": true, "assert": true, "expect": true, "require": true,
	"got": true, "want": true, "actual": true, "expected": true, "result": true, "res": true,
	"value": true, "unwrap": true, "string": true, "int": true, "the": true, "and": true,
	"not": true, "for": true, "range": true, "else": true,
}

// operandWords lists the names and words a check's operands hold, of three
// letters or more and not generic: what the check is about. The names of
// a selector chain are left out (`page.getByText`, `resp.StatusCode`):
// every check of a Playwright test is about `page`, and a method name says
// how a value is read, not which; the arguments and literals (`port`,
// "beforeAll") and called functions (`Ready`) stay.
func operandWords(x testscan.Assertion) map[string]bool {
	out := map[string]bool{}
	for _, s := range []string{x.Subject, x.Expected} {
		rs := []rune(s)
		for i := 0; i < len(rs); {
			if !isIdentChar(rs[i]) {
				i++
				continue
			}
			j := i
			for j < len(rs) && isIdentChar(rs[j]) {
				j++
			}
			w := string(rs[i:j])
			selector := i > 0 && rs[i-1] == '.' || j < len(rs) && rs[j] == '.'
			if !selector && j-i >= 3 && unicode.IsLetter(rs[i]) && !genericWords[strings.ToLower(w)] {
				out[w] = true
			}
			i = j
		}
	}
	return out
}

// shared counts the words two sets have in common.
func shared(a, b map[string]bool) int {
	n := 0
	for w := range a {
		if b[w] {
			n++
		}
	}
	return n
}

// fold takes a place in the spare's expected text for a lost check's
// literal expected text x, if one is left (see foldsInto).
func (s *spareCheck) fold(x string) bool {
	for _, off := range foldsInto(s.x.Expected, x) {
		if s.slots[off] < s.runs {
			if s.slots == nil {
				s.slots = map[int]int{}
			}
			s.slots[off]++
			return true
		}
	}
	return false
}

// foldsInto returns the places (offsets in its templateShape) where an
// expected text built from a helper's parameters (into: a template literal
// or a format string) holds a lost check's literal expected text (x) with
// its numbers filled in: "17 Pass" is `${options.pass} Pass ...`'s
// "# Pass". The lost text needs a word besides its numbers, and into needs
// a place for each number: a constant "Pass Fail Total" pins no count and
// folds nothing; and ten checks of "N Pass" do not fold into one
// `${pass} Pass`.
func foldsInto(into, x string) []int {
	lit, ok := unquote(x)
	if !ok {
		return nil
	}
	shape, nums := numberShape(lit)
	if nums == 0 || len(textWords(shape)) == 0 {
		return nil
	}
	tpl := templateShape(into)
	var offs []int
	for i := 0; ; {
		j := strings.Index(tpl[i:], shape)
		if j < 0 {
			return offs
		}
		offs = append(offs, i+j)
		i += j + 1
	}
}

// unquote returns the text of a quoted literal ('x', "x" or `x` without
// substitutions).
func unquote(s string) (string, bool) {
	if len(s) < 2 || s[0] != s[len(s)-1] || !strings.ContainsRune("'\"`", rune(s[0])) {
		return "", false
	}
	body := s[1 : len(s)-1]
	if s[0] == '`' && strings.Contains(body, "${") {
		return "", false
	}
	return body, true
}

// numberShape replaces each run of digits in s by "#", and counts them.
func numberShape(s string) (string, int) {
	var b strings.Builder
	n := 0
	digits := false
	for _, r := range s {
		if unicode.IsDigit(r) {
			if !digits {
				b.WriteByte('#')
				n++
			}
			digits = true
			continue
		}
		digits = false
		b.WriteRune(r)
	}
	return b.String(), n
}

// templateShape replaces each substitution of a template literal
// (`${...}`) or format string (%d, %v, {name}) by "#"; "" for a text with
// none, whose values are all constant.
func templateShape(s string) string {
	if len(s) < 2 {
		return ""
	}
	body := s[1 : len(s)-1]
	var b strings.Builder
	subs := 0
	for i := 0; i < len(body); i++ {
		switch {
		case body[i] == '$' && i+1 < len(body) && body[i+1] == '{':
			j := strings.IndexByte(body[i:], '}')
			if j < 0 {
				return ""
			}
			b.WriteByte('#')
			subs++
			i += j
		case body[i] == '%' && i+1 < len(body) && strings.IndexByte("dvsf", body[i+1]) >= 0:
			b.WriteByte('#')
			subs++
			i++
		case body[i] == '{' && s[0] != '`':
			j := strings.IndexByte(body[i:], '}')
			if j < 0 {
				return ""
			}
			b.WriteByte('#')
			subs++
			i += j
		default:
			b.WriteByte(body[i])
		}
	}
	if subs == 0 {
		return ""
	}
	return b.String()
}

// textWords lists the runs of letters of a text.
func textWords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
}

// noteReworded records that checks of the test or helper whose calls are
// newCalls stand in the helpers it calls only reworded or folded, for
// compareReach to report.
func (cr *callReach) noteReworded(newCalls []testscan.Call, n int) {
	if len(newCalls) == 0 {
		return
	}
	if cr.reworded == nil {
		cr.reworded = map[*testscan.Call]int{}
	}
	cr.reworded[&newCalls[0]] += n
}

// rewordedChecks is how many checks of a test credit took as reworded or
// folded into the helpers it calls.
func (cr *callReach) rewordedChecks(t *testscan.TestCase) int {
	if cr == nil || len(t.Calls) == 0 {
		return 0
	}
	return cr.reworded[&t.Calls[0]]
}

// helperBecameTest reports how many runs of a helper's checks a test that
// stopped calling it still gets because the helper became a parameterized
// test of the file (commons-lang's testCreateLongFailure("") calls became
// `@ParameterizedTest @ValueSource(strings = {"", " "}) void
// testCreateLongFailure(String str)`): one per row whose value the old test
// passed (a literal of its body), rows counted once per value, and only when
// the test holds every check the helper held. 0 when it did not.
func helperBecameTest(helper string, checks []testscan.Assertion, old *testscan.TestCase, s *side) int {
	if s == nil || s.facts == nil || len(checks) == 0 {
		return 0
	}
	passed := map[string]bool{}
	for _, l := range old.Literals {
		passed[l] = true
	}
	name := lastSegment(helper)
	rows := map[string]bool{}
	for i := range s.facts.Tests {
		tc := &s.facts.Tests[i]
		if tc.Name != name || tc.Skip != nil || len(tc.Literals) == 0 || !passed[tc.Literals[0]] || !holdsChecks(tc.Assertions, checks) {
			continue
		}
		rows[tc.Literals[0]] = true
	}
	return len(rows)
}

// holdsChecks reports whether have holds a check with the assertKey of each
// of want.
func holdsChecks(have, want []testscan.Assertion) bool {
	keys := map[string]int{}
	for _, x := range have {
		keys[assertKey(x)]++
	}
	for _, x := range want {
		k := assertKey(x)
		if keys[k] == 0 {
			return false
		}
		keys[k]--
	}
	return true
}

// opposed reports two conditions that bound the same value from opposite
// sides (`leaked<=64` and `leaked>opened/2`, or `64<leaked`): a check that
// now holds only where the old one failed is no rewording of it.
func opposed(x, y string) bool {
	xl, xr, xd := comparison(x)
	yl, yr, yd := comparison(y)
	if xd == 0 || yd == 0 {
		return false
	}
	if yl == xr || yr == xl && yl != xl {
		yl, yd = yr, -yd // 64<leaked is leaked>64
	}
	return yl == xl && yd == -xd
}

// comparison splits a condition with one ordering comparison at its top
// level (outside brackets, no && or ||) into its sides and its direction:
// -1 for < and <=, 1 for > and >=; dir is 0 for any other condition.
func comparison(s string) (left, right string, dir int) {
	depth, at, n := 0, -1, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case depth != 0:
		case (c == '&' || c == '|') && i+1 < len(s) && s[i+1] == c:
			return "", "", 0
		case c == '<' || c == '>':
			prev, next := byte(0), byte(0)
			if i > 0 {
				prev = s[i-1]
			}
			if i+1 < len(s) {
				next = s[i+1]
			}
			if prev == '-' || prev == '=' || prev == ':' || next == c || prev == c || next == ':' {
				continue // ->, =>, ::<, <<, >>
			}
			at, n = i, n+1
		}
	}
	if n != 1 {
		return "", "", 0
	}
	dir = -1
	if s[at] == '>' {
		dir = 1
	}
	r := at + 1
	if r < len(s) && s[r] == '=' {
		r++
	}
	return strings.TrimSpace(s[:at]), strings.TrimSpace(s[r:]), dir
}
