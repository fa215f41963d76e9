package analyze

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/analyze/ci"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// compareAssertions reports how a test's checks changed between two versions of
// the same test. Checks that moved behind a call (cr) or into helpers the
// change gave more checks of their kind (gain) are not counted as removed.
func (a *Analyzer) compareAssertions(o, n *locTest, gain map[string]int, cr *callReach) []gate.Finding {
	ot, nt := o.tc, n.tc
	file, id := n.side.path, nt.ID
	var out []gate.Finding
	if nt.BodyTokens == 0 && ot.BodyTokens > 0 {
		msg := fmt.Sprintf("the body of test %s was emptied: it now passes without running anything", id)
		return []gate.Finding{gate.NewFinding(gate.RuleBodyEmptied, gate.SeverityHigh, file, nt.Line, id, "", "", msg+".")}
	}

	// Variant checks merged into one are one check (variants.go).
	if merged := mergeVariants(ot.Assertions, nt.Assertions); len(merged) < len(ot.Assertions) {
		c := *ot
		c.Assertions = merged
		ot = &c
	}
	// A check kept word for word that can no longer fail (the code it
	// calls replaced by a stub around it) is weakened all the same.
	out = append(out, stubbedNow(ot.Assertions, nt.Assertions, file, id)...)
	// Drop the assertions that are unchanged.
	remOld, remNew := assertionDiff(ot.Assertions, nt.Assertions)
	if len(remOld) == 0 {
		return out // only additions: never a weakening (bar a stub)
	}

	// Pair changed assertions on the same subject (or, failing that, the same
	// expected value) and judge each pair.
	usedNew := make([]bool, len(remNew))
	var unpaired []testscan.Assertion
	im := newImplied(nt.Assertions)
	for _, x := range remOld {
		if x.Strength > testscan.Trivial && im.by(x) {
			continue // implied by a check of the new version (see covers)
		}
		j := pairAssertion(x, remNew, usedNew)
		if j < 0 {
			unpaired = append(unpaired, x)
			continue
		}
		usedNew[j] = true
		if f, ok := judgePair(x, remNew[j], file, id, explainedBy(cr, o, n)); ok {
			out = append(out, f)
		}
	}
	// Checks the test now reaches through the helpers it calls were moved
	// there, before anything stands in for them.
	unpaired = cr.credit(unpaired, o.side, ot.Calls, n.side, nt.Calls)
	unpaired = notImplied(unpaired, im)
	if len(unpaired) == 0 {
		return out
	}

	// What is left on either side was rewritten on other subjects: each leftover
	// new assertion stands in for a leftover old one (same kind first). Only the
	// old ones nothing stands in for were removed.
	// A check the old version made too, made once more by a loop given
	// one more row (the same check on the same line, once per row), is a
	// repeat: it stands in only for a check about a value it is about,
	// not for a check of something else the change dropped.
	had := make(map[string]bool, len(ot.Assertions))
	for _, x := range ot.Assertions {
		had[assertKey(x)] = true
	}
	perLine := make(map[string]int, len(nt.Assertions))
	for _, x := range nt.Assertions {
		perLine[strconv.Itoa(x.Line)+"\x00"+assertKey(x)]++
	}
	var spare, repeats []testscan.Assertion
	for j, x := range remNew {
		if !usedNew[j] && !im.takenAt(x) {
			if k := assertKey(x); had[k] && perLine[strconv.Itoa(x.Line)+"\x00"+k] > 1 {
				repeats = append(repeats, x)
			} else {
				spare = append(spare, x)
			}
		}
	}
	var weaker []string
	var gone []testscan.Assertion
	// A verification of how often the code did something spans the whole
	// test: it stands for every sample of one state taken along the way
	// (assertFalse(c.isClean()); close(); assertTrue(c.isClean()) twice ->
	// verify(() -> clean(..), times(1))).
	sampled := map[string]bool{}
	for _, x := range kindFirst(unpaired, spare) {
		j := standIn(x, spare)
		var y testscan.Assertion
		if j >= 0 {
			y = spare[j]
			spare = append(spare[:j], spare[j+1:]...)
		} else if j = repeatFor(x, repeats); j >= 0 {
			y = repeats[j]
			repeats = append(repeats[:j], repeats[j+1:]...)
		} else {
			if !sampled[x.Subject] {
				gone = append(gone, x)
			}
			continue
		}
		if exactVerification(y) && x.Subject != "" && effStrength(x) < testscan.Strong {
			sampled[x.Subject] = true
		}
		xs, ys := effStrength(x), effStrength(y)
		if ys == testscan.Trivial && xs > testscan.Trivial {
			msg := fmt.Sprintf("assertion in test %s was replaced by one that cannot fail: %s became %s", id, describeAssertion(x), describeAssertion(y))
			out = append(out, gate.NewFinding(gate.RuleAssertionTrivialized, gate.SeverityHigh, file, y.Line, id, "", x.Kind+">"+y.Kind, msg+"."))
			continue
		}
		if ys <= testscan.Weak && xs >= testscan.Medium {
			weaker = append(weaker, describeAssertion(x)+" -> "+describeAssertion(y))
		}
	}
	if len(weaker) > 0 {
		msg := fmt.Sprintf("test %s now checks less exactly: %s; the subjects changed too, so this may be a refactor", id, quoteList(weaker, 3))
		out = append(out, gate.NewFinding(gate.RuleAssertionReplacedWeaker, gate.SeverityMedium, file, nt.Line, id, "", strings.Join(weaker, ";"), msg+"."))
	}
	gone = dropRepeats(gone, ot, nt)
	gone = impliedByExact(gone, ot)
	gone = cr.movedToHelpers(gone, ot, nt)
	gone = cr.unwrappedDuplicates(gone, o, n)
	gone, retired, notice := retiredChecks(gone, o, cr)
	gone, failing, raise := cr.retiredRaiseChecks(gone, o, nt)
	removed := len(gone)
	if removed == 0 {
		if len(retired)+len(failing) > 0 {
			out = append(out, retiredFinding(retired, notice, failing, raise, file, nt.Line, id))
		}
		return out
	}
	unpaired = gone
	kinds := make([]string, 0, len(unpaired))
	for _, x := range unpaired {
		kinds = append(kinds, describeAssertion(x))
	}
	line := nt.Line
	if nt.CommentedAssertions > ot.CommentedAssertions {
		msg := fmt.Sprintf("%d %s in test %s %s commented out: %s", removed, ci.Plural(removed, "assertion", "assertions"), id, ci.Plural(removed, "was", "were"), quoteList(kinds, 3))
		return append(out, gate.NewFinding(gate.RuleAssertionCommentedOut, gate.SeverityHigh, file, line, id, "", "", msg+"."))
	}
	sev := gate.SeverityHigh
	msg := fmt.Sprintf("%d %s removed from test %s: %s", removed, ci.Plural(removed, "assertion", "assertions"), id, quoteList(kinds, 3))
	if len(nt.Assertions) == 0 {
		msg = fmt.Sprintf("test %s no longer asserts anything: removed %s", id, quoteList(kinds, 3))
	} else if prod, exc := expectsNewFailure(cr, o, n, remNew); prod != "" {
		// The values the test checked became the failure the changed code
		// now raises: an expected outcome rewritten, not checks dropped.
		sev = gate.SeverityMedium
		msg += fmt.Sprintf("; the test now expects %s, which %s (changed in the same commit) declares, so check that the behaviour was meant to change", exc, prod)
	}
	return append(out, gate.NewFinding(gate.RuleAssertionRemoved, sev, file, line, id, "", strings.Join(kinds, ";"), msg+"."))
}

// stubbedNow reports the checks made the same way in both versions whose
// new version the extractor rates trivial where the old one was not: the
// test, a fixture or the file replaced the code they call with a stub.
func stubbedNow(old, cur []testscan.Assertion, file, id string) []gate.Finding {
	var out []gate.Finding
	used := make([]bool, len(cur))
	for _, x := range old {
		if x.Strength <= testscan.Trivial {
			continue
		}
		for j, y := range cur {
			if used[j] || assertKey(x) != assertKey(y) {
				continue
			}
			used[j] = true
			if y.Strength == testscan.Trivial {
				msg := fmt.Sprintf("check %s in test %s is kept word for word, but the code it calls is now replaced by a stub (a mock or patch in the test, a fixture or the file), so it checks the stub's answer and cannot fail", describeAssertion(y), id)
				out = append(out, gate.NewFinding(gate.RuleCheckOfStub, gate.SeverityHigh, file, y.Line, id, "", "stub:"+assertKey(x), msg+"."))
			}
			break
		}
	}
	return out
}

// compareReworked judges a test matched to a reworked one (renamed with edits, or
// folded into a parametrized test): only a clear drop in strength is reported.
// A JavaScript test may now reach its checks through a helper it calls
// (testRequestedRedirect(app, url, expected) doing the request's
// .expect(200), .expect('Location', expected)): the checks moved there, with
// the test's values passed in, are credited as compareAssertions credits them.
func (a *Analyzer) compareReworked(o, n *locTest, cr *callReach) []gate.Finding {
	oMax, nMax := maxStrength(o.tc), maxStrength(n.tc)
	if nMax >= testscan.Medium || nMax >= oMax {
		return nil
	}
	if n.side.ext != nil && n.side.ext.Lang() == testscan.JavaScript && helperHolds(o, n, nMax, cr) {
		return nil
	}
	msg := fmt.Sprintf("test %s became %s with only %s assertions (it had %s ones)", o.tc.ID, n.tc.ID, nMax, oMax)
	return []gate.Finding{gate.NewFinding(gate.RuleAssertionWeakened, gate.SeverityHigh, n.side.path, n.tc.Line, n.tc.ID, "", "reworked", msg+".")}
}

// reworkedInverted reports the checks a reworked test turned around: an old
// check whose expected value the new body still checks, only the other way
// (== 42 became != 42, toBe(x) became not.toBe(x)), with no check of that
// value the old way left. A test given a new name and new literals keeps
// its identity by what it checks, so a flipped check is judged as in a test
// that kept its name.
func reworkedInverted(o, n *locTest, cr *callReach) []gate.Finding {
	type way struct {
		kind, expected string
		negated        bool
	}
	now := map[way]bool{}
	for _, y := range n.tc.Assertions {
		now[way{baseKind(y.Kind), y.Expected, y.Negated}] = true
	}
	var out []gate.Finding
	seen := map[way]bool{}
	for _, x := range o.tc.Assertions {
		w := way{baseKind(x.Kind), x.Expected, x.Negated}
		if x.Expected == "" || x.Strength < testscan.Medium || now[w] || seen[w] {
			continue
		}
		flipped := w
		flipped.negated = !w.negated
		if !now[flipped] {
			continue
		}
		seen[w] = true
		for _, y := range n.tc.Assertions {
			if baseKind(y.Kind) == w.kind && y.Expected == x.Expected && y.Negated != x.Negated {
				if f, ok := judgePair(x, y, n.side.path, n.tc.ID, explainedBy(cr, o, n)); ok {
					f.Message = strings.Replace(f.Message, " was inverted:", fmt.Sprintf(" (%s before the change) was inverted:", o.tc.ID), 1)
					out = append(out, f)
				}
				break
			}
		}
	}
	return out
}

// reworkedLost reports a test matched to a reworked one that gave up
// checks (lostChecks), when compareReworked found no drop in strength.
func reworkedLost(o, n *locTest, others []*locTest, cr *callReach) []gate.Finding {
	k := lostChecks(o, n, others, cr)
	if k == 0 {
		return nil
	}
	msg := fmt.Sprintf("test %s became %s with %d fewer %s than it had (%d of at least medium strength, now %d), and the change put %s in no test it created",
		o.tc.ID, n.tc.ID, k, ci.Plural(k, "check", "checks"), checks(o.tc), checks(n.tc), ci.Plural(k, "it", "them"))
	return []gate.Finding{gate.NewFinding(gate.RuleAssertionRemoved, gate.SeverityHigh, n.side.path, n.tc.Line, n.tc.ID, "", "reworked", msg+".")}
}

// lostChecks counts the checks of at least medium strength that a test
// matched to a reworked one (its values renamed, moved under another name)
// gave up: a reworked body keeps as many checks as the old one, besides
// those the change moved into other tests it created (others: a split) and
// those the helpers it newly calls make. A moved test whose body lost a
// check is not the same test with all its work. Where the new body checks
// in a way the old one did not (a kind of check it did not use:
// assert_de_tokens and assert_ser_tokens become one assert_tokens), fewer
// checks may do the same work, and only the things it no longer checks
// (distinct subjects) count. A case of a table or a subtest (the test
// folded into a parametrized test) checks one row: its table is family's
// and rowKept's to judge.
func lostChecks(o, n *locTest, others []*locTest, cr *callReach) int {
	have := checks(n.tc)
	if checks(o.tc) <= have {
		return 0
	}
	if ob, _ := baseID(o.tc.ID); strings.HasPrefix(n.tc.ID, ob+"/") || strings.HasPrefix(n.tc.ID, ob+"[") {
		return 0
	}
	if _, param := baseID(n.tc.ID); param {
		return 0
	}
	var want []testscan.Assertion
	for _, x := range withoutCarried(o, n, indexMade(others), nil).tc.Assertions {
		if x.Strength >= testscan.Medium {
			want = append(want, x)
		}
	}
	if len(want) > have && cr != nil {
		want = cr.credit(want, o.side, o.tc.Calls, n.side, n.tc.Calls)
	}
	if len(want) <= have {
		return 0
	}
	kinds := map[string]bool{}
	for _, x := range o.tc.Assertions {
		kinds[x.Kind] = true
	}
	newKind := false
	now := map[string]bool{}
	for _, y := range n.tc.Assertions {
		if y.Strength >= testscan.Medium {
			newKind = newKind || !kinds[y.Kind]
			now[y.Subject] = true
		}
	}
	if !newKind {
		return len(want) - have
	}
	had := map[string]bool{}
	for _, x := range want {
		had[x.Subject] = true
	}
	return max(len(had)-len(now), 0)
}

// helperHolds reports whether every check of o stronger than nMax is one
// that the helpers n calls newly perform (see callReach.credit).
func helperHolds(o, n *locTest, nMax testscan.Strength, cr *callReach) bool {
	var lost []testscan.Assertion
	for _, x := range o.tc.Assertions {
		if effStrength(x) > nMax {
			lost = append(lost, x)
		}
	}
	if len(lost) == 0 || cr == nil || len(cr.credit(lost, o.side, o.tc.Calls, n.side, n.tc.Calls)) > 0 {
		return false
	}
	// The helper's checks take the test's values as parameters: each value
	// the lost checks expected must be passed by the test or written in
	// the helper's checks. A helper handed other values (an easy input
	// for the encoded URL the test was about) checks other things.
	var b strings.Builder
	for _, l := range n.tc.Literals {
		b.WriteString(l)
		b.WriteByte(0)
	}
	sc := cr.scope(false, n.side)
	_, helpers := sc.reachHelpers(n.tc.Calls)
	for h := range helpers {
		for _, y := range sc.asserts[h] {
			b.WriteString(y.Subject + "\x00" + y.Expected + "\x00")
		}
	}
	have := b.String()
	for _, x := range lost {
		for i, l := range stringLiterals(x.Expected) {
			if raw := rawLiterals(x.Expected); !strings.Contains(have, l) && (i >= len(raw) || !strings.Contains(have, raw[i])) {
				return false
			}
		}
		for _, v := range numberTokens(x.Expected) {
			if !containsToken(have, v) {
				return false
			}
		}
	}
	return true
}

func maxStrength(t *testscan.TestCase) testscan.Strength {
	m := testscan.Trivial
	for _, x := range t.Assertions {
		if x.Strength > m {
			m = x.Strength
		}
	}
	return m
}

func assertKey(x testscan.Assertion) string {
	return x.Kind + "\x00" + strconv.FormatBool(x.Negated) + "\x00" + x.Subject + "\x00" + x.Expected + "\x00" + x.Tolerance
}

func pairAssertion(x testscan.Assertion, cands []testscan.Assertion, used []bool) int {
	if x.Subject != "" {
		for j, c := range cands {
			if !used[j] && c.Subject == x.Subject {
				return j
			}
		}
	}
	if x.Expected != "" {
		for j, c := range cands {
			if !used[j] && c.Expected == x.Expected && c.Kind == x.Kind {
				return j
			}
		}
	}
	// The same value checked through a method or field of it:
	// parse("42") and parse("42").is_some(), res and res.ok; or read off
	// the object that now holds it: content and request.content.
	if len(x.Subject) >= 3 {
		// The strongest of them, or of the checks of fields of the same
		// variable: err.message matched -> assert.ok(err) and
		// assert.equal(err.name, "RenderError") pairs with the equality.
		best := -1
		for j, c := range cands {
			if !used[j] && len(c.Subject) >= 3 && (extends(c.Subject, x.Subject) || extends(x.Subject, c.Subject)) &&
				(best < 0 || effStrength(c) > effStrength(cands[best])) {
				best = j
			}
		}
		if best >= 0 {
			root := rootIdent(x.Subject)
			for j, c := range cands {
				if !used[j] && root != "" && strings.Contains(x.Subject, ".") && strings.Contains(c.Subject, ".") &&
					rootIdent(c.Subject) == root && effStrength(c) > effStrength(cands[best]) {
					best = j
				}
			}
			return best
		}
		for j, c := range cands {
			if !used[j] && len(c.Subject) >= 3 && (strings.HasSuffix(c.Subject, "."+x.Subject) || strings.HasSuffix(x.Subject, "."+c.Subject)) {
				return j
			}
		}
	}
	return -1
}

// extends reports whether expr is base followed by a selector, index or call.
func extends(expr, base string) bool {
	if !strings.HasPrefix(expr, base) || len(expr) == len(base) {
		return false
	}
	switch expr[len(base)] {
	case '.', '[', '(':
		return true
	}
	return false
}

// judgePair decides what a change from assertion x to y on the same subject means.
// prod names the production file of the change that defines code the test
// calls ("" when there is none): an inverted expectation that follows a
// change of that code may be the behaviour change the commit is for, which
// the diff alone cannot tell from a hidden regression (medium).
func judgePair(x, y testscan.Assertion, file, id, prod string) (gate.Finding, bool) {
	key := x.Kind + ">" + y.Kind + ":" + x.Subject
	line := y.Line
	xs, ys := effStrength(x), effStrength(y)
	switch {
	case x.Negated != y.Negated && baseKind(x.Kind) == baseKind(y.Kind):
		msg := fmt.Sprintf("assertion in test %s was inverted: %s became %s", id, describeAssertion(x), describeAssertion(y))
		if prod != "" {
			msg += fmt.Sprintf("; %s, whose code the test calls, changed in the same commit, so check that the behaviour was meant to change", prod)
			return gate.NewFinding(gate.RuleAssertionInverted, gate.SeverityMedium, file, line, id, "", key, msg+"."), true
		}
		return gate.NewFinding(gate.RuleAssertionInverted, gate.SeverityHigh, file, line, id, "", key, msg+"."), true
	case x.Expected != y.Expected && x.Expected != "" && y.Expected != "" && fromCodeUnderTest(y) != "" && fromCodeUnderTest(x) == "":
		msg := fmt.Sprintf("expected value in test %s was rewritten from %s to %s, which calls %s, the code the check is about: the check now compares the code's output with what that same code returns, not with an independent value", id, ci.Clip(x.Expected), ci.Clip(y.Expected), fromCodeUnderTest(y))
		return gate.NewFinding(gate.RuleExpectedFromCode, gate.SeverityHigh, file, line, id, "", key, msg+"."), true
	case covers(y, x):
		return gate.Finding{}, false
	case ys == testscan.Trivial && xs > testscan.Trivial,
		ys <= testscan.Weak && xs >= testscan.Medium && !trueToTruthy(x, y),
		nonEmptiness(x) && presenceOnly(y):
		msg := fmt.Sprintf("assertion in test %s was weakened: %s (%s) became %s (%s)", id, describeAssertion(x), xs, describeAssertion(y), ys)
		return gate.NewFinding(gate.RuleAssertionWeakened, gate.SeverityHigh, file, line, id, "", key, msg+"."), true
	case ys < xs:
		msg := fmt.Sprintf("assertion in test %s is less exact: %s (%s) became %s (%s)", id, describeAssertion(x), xs, describeAssertion(y), ys)
		return gate.NewFinding(gate.RuleAssertionWeakened, gate.SeverityMedium, file, line, id, "", key, msg+"."), true
	case x.Tolerance != y.Tolerance && x.Tolerance != "":
		ov, e1 := toleranceValue(x.Tolerance)
		nv, e2 := toleranceValue(y.Tolerance)
		if e1 == nil && e2 == nil && nv <= ov {
			return gate.Finding{}, false // a tighter tolerance is stronger
		}
		sev := gate.SeverityMedium
		if e1 == nil && e2 == nil {
			sev = gate.SeverityHigh
		}
		msg := fmt.Sprintf("tolerance of an assertion in test %s was widened from %s to %s", id, x.Tolerance, y.Tolerance)
		if isDigitsTolerance(x.Kind, x.Tolerance) {
			// toBeCloseTo, assertAlmostEqual(places=): more digits is tighter.
			if e1 == nil && e2 == nil && nv >= ov {
				return gate.Finding{}, false
			}
			msg = fmt.Sprintf("precision of an assertion in test %s was lowered from %s to %s digits", id, x.Tolerance, y.Tolerance)
		}
		return gate.NewFinding(gate.RuleToleranceWidened, sev, file, line, id, "", key, msg+"."), true
	case x.Expected != y.Expected && x.Expected != "" && y.Expected != "":
		msg := fmt.Sprintf("expected value in test %s was rewritten from %s to %s; a behaviour change the task asked for also does this, so check that the code, not the test, was meant to change", id, ci.Clip(x.Expected), ci.Clip(y.Expected))
		return gate.NewFinding(gate.RuleExpectedRewritten, gate.SeverityMedium, file, line, id, "", key, msg), true
	}
	return gate.Finding{}, false
}

// fromCodeUnderTest returns the function under test of a check (the
// outermost call of its subject, or of the call a Go subject came from)
// when its expected value makes that very call again, with the same
// arguments (`parse("x") == parse("x")`, `parse("x") in (42, parse("x"))`,
// `assert.Equal(t, Parse(s), got)` where got came from Parse(s)): a
// circular expectation. "" when the expected value is independent of it;
// the same function applied to another value on both sides (a
// normalization: strings.ReplaceAll(want, ..) against
// strings.ReplaceAll(got, ..)) is not.
func fromCodeUnderTest(x testscan.Assertion) string {
	subjects := []string{x.Subject}
	if x.Origin != "" && !strings.HasPrefix(x.Origin, "$") {
		subjects = append(subjects, x.Origin)
	}
	for _, s := range subjects {
		c := outerCallee(s)
		if c == "" {
			continue
		}
		call := outerCall(s)
		if call != "" && containsCall(x.Expected, call) {
			return c
		}
	}
	return ""
}

// containsCall reports whether expr makes the call call, written the same:
// not as the tail of a longer name (reference_parse("x") is not parse("x")).
func containsCall(expr, call string) bool {
	for i := 0; ; {
		k := strings.Index(expr[i:], call)
		if k < 0 {
			return false
		}
		at := i + k
		if at == 0 || !(ci.IsIdentByte(expr[at-1]) || expr[at-1] == '.' || expr[at-1] == ':') {
			return true
		}
		i = at + 1
	}
}

// outerCall returns the text of an expression's outermost call, through
// the conversions outerCallee looks through (`len(parse(s))`: parse(s)),
// "" when it has none or its parentheses do not close.
func outerCall(expr string) string {
	e := strings.TrimSpace(expr)
	for _, p := range []string{"await ", "new "} {
		e = strings.TrimPrefix(e, p)
	}
	for range 4 {
		j := 0
		for j < len(e) && (ci.IsIdentByte(e[j]) || e[j] == '.' || e[j] == ':') {
			j++
		}
		if j == 0 || j >= len(e) || e[j] != '(' {
			return ""
		}
		depth := 0
		end := -1
		for k := j; k < len(e) && end < 0; k++ {
			switch e[k] {
			case '(':
				depth++
			case ')':
				depth--
				if depth == 0 {
					end = k
				}
			}
		}
		if end < 0 {
			return ""
		}
		if !genericCallee[e[:j]] {
			return e[:end+1]
		}
		e = strings.TrimSpace(e[j+1 : end])
	}
	return ""
}

// outerCallee returns the function an expression's outermost call calls
// (`parse("x").value`: parse; `obj.m(x)`: obj.m), looking through
// conversions and collection builders (`len(parse(s))`: parse); "" when the
// expression does not start with a call (see outerCall).
func outerCallee(expr string) string {
	c := outerCall(expr)
	if i := strings.IndexByte(c, '('); i > 0 {
		return c[:i]
	}
	return ""
}

// genericCallee are calls that say nothing of which code a value came
// from: conversions and collection builders.
var genericCallee = map[string]bool{
	"len": true, "str": true, "int": true, "float": true, "list": true, "dict": true, "set": true, "tuple": true,
	"bytes": true, "repr": true, "sorted": true, "String": true, "Number": true, "Boolean": true, "Array.from": true,
	"Object.keys": true, "JSON.stringify": true, "JSON.parse": true, "string": true, "append": true, "make": true,
	"new": true, "vec!": true, "Some": true, "Ok": true, "Err": true, "Arrays.asList": true, "List.of": true,
	"Map.of": true, "Set.of": true, "String.valueOf": true, "Integer.valueOf": true, "Long.valueOf": true,
}

// toleranceValue reads a tolerance operand: "0.01", "abs=0.01", "delta = 1e-3".
func toleranceValue(s string) (float64, error) {
	if i := strings.LastIndexByte(s, '='); i >= 0 {
		s = s[i+1:]
	}
	return strconv.ParseFloat(strings.TrimSpace(s), 64)
}

// isDigitsTolerance reports a tolerance counted in digits, where more is
// tighter: jest's toBeCloseTo(v, numDigits), unittest's places=.
func isDigitsTolerance(kind, tol string) bool {
	return strings.Contains(strings.ToLower(kind), "tobecloseto") || strings.HasPrefix(strings.TrimSpace(tol), "places")
}

// baseKind strips negation from a matcher name so Equal and NotEqual, toBe and
// not.toBe, assertEqual and assertNotEqual compare equal.
func baseKind(k string) string {
	k = strings.ReplaceAll(k, ".not.", ".")
	k = strings.TrimPrefix(k, "not.")
	for _, p := range []string{"Not", "not_", "not", "_ne", "_eq"} {
		k = strings.Replace(k, p, "", 1)
	}
	k = strings.ReplaceAll(k, "!=", "==")
	return strings.ToLower(k)
}

func describeAssertion(x testscan.Assertion) string {
	s := x.Kind
	if x.Negated && !strings.Contains(strings.ToLower(x.Kind), "not") && !strings.Contains(x.Kind, "!=") && !strings.Contains(x.Kind, "_ne") {
		s = "not " + s
	}
	if x.Expected != "" {
		return fmt.Sprintf("%s(%s)", s, ci.Clip(x.Expected))
	}
	if x.Subject != "" && len(x.Subject) <= 40 {
		// A check without an expected value is told apart by what it
		// checks: require.NoError(h.Close()), toBeDefined(res), assert
		// resp.body is not None.
		if op, ok := strings.CutPrefix(s, "assert "); ok {
			return "assert " + x.Subject + " " + op
		}
		return fmt.Sprintf("%s(%s)", s, x.Subject)
	}
	return s
}

// explainedBy names a production file of the change, in the test's
// language, that declares something the test calls (URL.copy_with for
// url.copy_with(...)): the code whose behaviour the test's rewritten
// expectations may follow. "" when the change touches no such file.
func explainedBy(cr *callReach, o, n *locTest) string {
	if cr == nil {
		return ""
	}
	called := map[string]bool{}
	for _, tc := range []*testscan.TestCase{o.tc, n.tc} {
		for _, c := range tc.Calls {
			called[strings.TrimPrefix(c.Name, ".")] = true
		}
	}
	for _, pr := range cr.pairs {
		if pr.old == nil || pr.new == nil || pr.old.isTest || pr.new.isTest || pr.new.facts == nil || pr.old.facts == nil ||
			pr.new.ext == nil || pr.new.ext.Lang() != n.side.ext.Lang() {
			continue
		}
		for _, sym := range pr.new.facts.Exports {
			name := sym.Name
			if i := strings.LastIndexByte(name, '.'); i >= 0 {
				name = name[i+1:]
			}
			if called[name] {
				return pr.path()
			}
		}
	}
	return ""
}

// expectsNewFailure reports a test that, where it lost value checks, now
// expects a failure of the code it calls, which the change edited: an
// error with its message (toThrow("m"), raises(E, match=m)), or an error E
// (pytest.raises(E), assertThrows(E.class, ...)) the changed production
// code names. A bare raises(Exception) explains nothing.
func expectsNewFailure(cr *callReach, o, n *locTest, added []testscan.Assertion) (prod, exc string) {
	prod = explainedBy(cr, o, n)
	if prod == "" {
		return "", ""
	}
	// The changed production code of the test's language declares or
	// raises it (httpx: _urlparse.py, new in the commit, raises InvalidURL).
	declared := func(e string) bool {
		for _, pr := range cr.pairs {
			if pr.new == nil || pr.new.isTest || pr.new.ext == nil || pr.new.ext.Lang() != n.side.ext.Lang() || pr.new.facts == nil {
				continue
			}
			if containsToken(string(pr.text(false)), e) {
				return true
			}
		}
		return false
	}
	for _, y := range added {
		if !outcomeKind(y.Kind) || y.Negated {
			continue
		}
		if msg, ok := pinnedText(y); ok {
			// toThrow("message"), raises(E, match=m): the message the
			// changed code now fails with.
			return prod, "the error " + ci.Quoted(ci.Clip(strings.TrimSpace(msg)))
		}
		f := strings.Fields(y.Expected)
		if len(f) == 0 {
			continue
		}
		e := strings.TrimSuffix(strings.TrimSuffix(f[0], ","), ".class")
		if i := strings.LastIndexByte(e, '.'); i >= 0 {
			e = e[i+1:]
		}
		switch e {
		case "", "Exception", "BaseException", "Throwable", "RuntimeException", "Error", "AssertionError", "AssertionFailedError":
			continue // any failure passes
		}
		if declared(e) {
			return prod, e
		}
	}
	return "", ""
}

// notImplied drops the lost checks that checked nothing (assert True,
// t.pass(), pytest.warns(None)) and those a check of the new version
// implies (see covers).
func notImplied(lost []testscan.Assertion, im *implied) []testscan.Assertion {
	var out []testscan.Assertion
	for _, x := range lost {
		if x.Strength == testscan.Trivial && !alwaysFails(x) || im.by(x) {
			continue
		}
		out = append(out, x)
	}
	return out
}

// alwaysFails reports a check of a constant that cannot pass, such as
// true.should.be.false() in a callback that must not run: graded trivial
// for its constant subject, yet the check that the callback never runs.
func alwaysFails(x testscan.Assertion) bool {
	k := strings.ToLower(x.Kind)
	switch strings.TrimSpace(x.Subject) {
	case "true", "True", "1":
		return x.Negated || strings.Contains(k, "false") || strings.Contains(k, "falsy")
	case "false", "False", "0", "null", "None", "undefined", "nil":
		return !x.Negated && (strings.Contains(k, "true") || strings.Contains(k, "ok") || strings.Contains(k, "truthy") || k == "assert" || k == "assert!")
	}
	return false
}

// trueToTruthy reports x.should.be.true() / expect(x).toBe(true) become
// assert.ok(x) / expect(x).toBeTruthy() on the same value: === true
// loosened to truthy, less exact (medium), not a value check dropped.
func trueToTruthy(x, y testscan.Assertion) bool {
	if x.Negated || y.Negated || x.Subject == "" || x.Subject != y.Subject || y.Strength != testscan.Weak {
		return false
	}
	k := strings.ToLower(x.Kind)
	return x.Expected == "true" || k == "true" || strings.HasSuffix(k, ".true") || strings.HasSuffix(k, "istrue") || strings.HasSuffix(k, "asserttrue")
}

// exactVerification reports a mock verification of an exact call count:
// Mockito's verify(m).f(x) and verify(m, times(n)).f(x), MockedStatic's
// verify(() -> f(x)).
func exactVerification(y testscan.Assertion) bool {
	return y.Kind == "verify" && y.Strength == testscan.Strong && !y.Negated
}

// repeatFor picks the repeat of a kept check made by a loop's new row (see
// compareAssertions) that stands in for x: one about a value x was about (an operand word in
// common), the strongest; -1 when none is.
func repeatFor(x testscan.Assertion, repeats []testscan.Assertion) int {
	xw := operandWords(x)
	best := -1
	for j, y := range repeats {
		if shared(xw, operandWords(y)) > 0 && (best < 0 || y.Strength > repeats[best].Strength) {
			best = j
		}
	}
	if best >= 0 && standIn(x, repeats[best:best+1]) < 0 {
		return -1
	}
	return best
}

// standIn picks the leftover new assertion that replaces x: one of the same kind,
// else the strongest left; never a check that the call a settlement flag
// was checked to have resolved now fails (testscan.Assertion.Rejects).
func standIn(x testscan.Assertion, spare []testscan.Assertion) int {
	best := -1
	for j, y := range spare {
		if strings.HasPrefix(x.Rejects, "!") && failsCall(y, x.Rejects[1:]) {
			continue // the opposite outcome: the call now must fail
		}
		if y.Kind == x.Kind {
			return j
		}
		if best < 0 || y.Strength > spare[best].Strength {
			best = j
		}
	}
	return best
}

// kindFirst orders the checks nothing paired so that those a spare check of
// the same kind can stand in for go first: a bound moved into a helper
// must not take the place of the one new check of the kind a rewritten
// check kept (Same(&cached[0], &cr.cached[0]) -> Same(sentinel,
// cr.cached[0]), prometheus f92530057d). The order is otherwise kept.
func kindFirst(unpaired, spare []testscan.Assertion) []testscan.Assertion {
	kinds := make(map[string]bool, len(spare))
	for _, y := range spare {
		kinds[y.Kind] = true
	}
	out := make([]testscan.Assertion, 0, len(unpaired))
	for _, x := range unpaired {
		if kinds[x.Kind] {
			out = append(out, x)
		}
	}
	for _, x := range unpaired {
		if !kinds[x.Kind] {
			out = append(out, x)
		}
	}
	return out
}

// helperGain counts, by kind, the helper assertions the change added across
// all its files (new sides minus old sides): where checks moved into helpers,
// in the test's file or in a shared one (conftest.py, test/support/utils.js).
func helperGain(pairs []*pair) map[string]int {
	gain := map[string]int{}
	for _, pr := range pairs {
		if pr.new != nil && pr.new.facts != nil {
			for _, x := range pr.new.facts.HelperAssertions {
				gain[x.Kind]++
			}
		}
		if pr.old != nil && pr.old.facts != nil {
			for _, x := range pr.old.facts.HelperAssertions {
				gain[x.Kind]--
			}
		}
	}
	return gain
}

// dropRepeats leaves out of the removed checks those that repeated, on the
// very next line, a check the test still makes: assertThat(list).
// isEqualTo(expectedList) twice in a row checks nothing the first did not
// (gson 11daec5fe1). A repeat with anything between (a call that could
// change what it checks) is a check of its own.
func dropRepeats(gone []testscan.Assertion, ot, nt *testscan.TestCase) []testscan.Assertion {
	kept := map[string]int{}
	for _, y := range nt.Assertions {
		kept[assertKey(y)]++
	}
	var out []testscan.Assertion
	for _, x := range gone {
		k := assertKey(x)
		repeat := false
		for i, y := range ot.Assertions {
			if y.Line == x.Line && i > 0 {
				p := ot.Assertions[i-1]
				repeat = p.Line == x.Line-1 && assertKey(p) == k && kept[k] > 0
				break
			}
		}
		if repeat {
			kept[k]--
			continue
		}
		out = append(out, x)
	}
	return out
}

// impliedByExact drops from gone the checks that only said a value is there
// or of a type (presenceOnly, typeOnly) when an exact check of the old
// version that is not gone used that very value: `assert isinstance(stream,
// Iterable)` beside `assert content == b"".join(stream)`, NotNil(resp)
// beside Equal(200, resp.StatusCode). The exact check fails, or raises, on a
// missing or mistyped value, so the weaker one checked nothing more; the
// exact check is judged on its own where it changed. A presence check of
// another value (resp.Body beside resp.StatusCode) is a check of its own.
func impliedByExact(gone []testscan.Assertion, ot *testscan.TestCase) []testscan.Assertion {
	if len(gone) == 0 {
		return gone
	}
	lost := make(map[string]int, len(gone))
	for _, x := range gone {
		lost[strconv.Itoa(x.Line)+"\x00"+assertKey(x)]++
	}
	out := gone[:0:0]
	for _, x := range gone {
		if !(presenceOnly(x) || typeOnly(x)) || x.Subject == "" || rootIdent(x.Subject) == "" || !impliedIn(x, ot.Assertions, lost) {
			out = append(out, x)
		}
	}
	return out
}

// impliedIn reports whether an exact, unnegated check among all, not lost
// and made on every run (under no branch, loop or closure), uses x's
// subject outside its string literals.
func impliedIn(x testscan.Assertion, all []testscan.Assertion, lost map[string]int) bool {
	for _, z := range all {
		if z.Negated || effStrength(z) < testscan.Strong || !equalityKind(z.Kind) || len(z.Arms) > 0 || lost[strconv.Itoa(z.Line)+"\x00"+assertKey(z)] > 0 {
			continue
		}
		if usesValue(z.Subject, x.Subject) || usesValue(z.Expected, x.Subject) {
			return true
		}
	}
	return false
}

// typeOnly reports a check that only says of what type a value is:
// isinstance, IsType, assertInstanceOf, toBeInstanceOf, isInstanceOf.
func typeOnly(x testscan.Assertion) bool {
	if x.Negated {
		return false
	}
	k := strings.ToLower(x.Kind)
	for _, s := range []string{"isinstance", "istype", "instanceof"} {
		if strings.Contains(k, s) {
			return true
		}
	}
	return false
}

// usesValue reports whether expression e names v (a name or a selector
// chain) as a whole, outside e's string literals.
func usesValue(e, v string) bool {
	return containsToken(blankStrings(e), v)
}

// retiredFinding reports the checks a test gave up with the deprecation
// the change retired (see retiredChecks) and with the failure it stopped
// raising (see retiredRaiseChecks): medium, the behaviour they held the
// code to gone by design.
func retiredFinding(retired []testscan.Assertion, notice string, failing []testscan.Assertion, raise *retiredRaise, file string, line int, id string) gate.Finding {
	all := append(append([]testscan.Assertion{}, retired...), failing...)
	kinds := make([]string, 0, len(all))
	for _, x := range all {
		kinds = append(kinds, describeAssertion(x))
	}
	var why []string
	if n := len(retired); n > 0 {
		if len(notice) > 80 {
			notice = notice[:77] + "..."
		}
		why = append(why, fmt.Sprintf("%s about deprecated behaviour whose notice (%q) the change removed from production code, so the deprecation ended with %s",
			ci.Plural(n, "it was", "they were"), notice, ci.Plural(n, "it", "them")))
	}
	if n := len(failing); n > 0 {
		why = append(why, fmt.Sprintf("%s %s, which the change took out of %s in %s, and the test still calls %s as it is now",
			ci.Plural(n, "it expected", "they expected"), raiseText(raise), raise.fn, raise.file, lastSegment(raise.fn)))
	}
	n := len(all)
	msg := fmt.Sprintf("%d %s removed from test %s: %s; %s", n, ci.Plural(n, "assertion", "assertions"), id, quoteList(kinds, 3), strings.Join(why, "; "))
	return gate.NewFinding(gate.RuleAssertionRemoved, gate.SeverityMedium, file, line, id, "", strings.Join(kinds, ";"), msg+".")
}
