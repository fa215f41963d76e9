package analyze

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// A test deleted while a copy of it stays is no loss: express's
// "should not override previous Content-Types" at the end of res.jsonp.js
// was the ".jsonp(object)" group's test of the same name, less one check.
// The copy must be a test the change left alone (the same body at both
// ends, in the deleted test's own file and group, so under the same
// hooks, written apart from it: a row of its own table is another case),
// that runs, and that does all the deleted test did with the same
// setup: its every check (the same call on the same subject with the same
// expected value, at least as strong), the same calls (a call more only
// inside a check of its own) and the same literals outside the checks.
// Python is not asked: pytest's fixtures, named by parameters, are setup
// the body does not show. A test edited in the change is
// never such a copy, so a copy cannot be made for the occasion: a check
// merged into a test the change edits is judged by what that test gained
// (splitCarried).

// duplicateOf returns the unchanged test of o's file that covers o, or nil.
func duplicateOf(o *locTest, cr *callReach) *testscan.TestCase {
	pr := o.pr
	if pr.new == nil || pr.old == nil || o.tc.BodyTokens == 0 || cr == nil || o.side.ext == nil || o.side.ext.Lang() == testscan.Python {
		// pytest hands each test the fixtures its parameters name: two
		// bodies alike may test two different objects.
		return nil
	}
	if pr.masked && !mayHoldCopy(o.tc, pr.fc.New) {
		// The versions were parsed masked (the copy, unchanged, is not
		// in them): read them whole only when the text can hold a copy.
		return nil
	}
	oldW, newW := cr.whole(pr, true), cr.whole(pr, false)
	if oldW == nil || newW == nil || oldW.facts == nil || newW.facts == nil {
		return nil
	}
	before := make(map[string]*testscan.TestCase, len(oldW.facts.Tests))
	for i := range oldW.facts.Tests {
		tc := &oldW.facts.Tests[i]
		if _, seen := before[tc.ID]; seen {
			before[tc.ID] = nil // two tests of one id: neither is known unchanged
			continue
		}
		before[tc.ID] = tc
	}
	// A row of the deleted test's own table (it.each, a loop of t.Run)
	// shares its source: it is another case, not a copy.
	apart := func(b *testscan.TestCase) bool {
		return b.EndLine < o.tc.Line || b.Line > o.tc.EndLine
	}
	group := strings.TrimSuffix(o.tc.ID, o.tc.Name)
	for i := range newW.facts.Tests {
		n := &newW.facts.Tests[i]
		b := before[n.ID]
		if n.ID == o.tc.ID || n.Fingerprint == "" || b == nil || b.Fingerprint != n.Fingerprint || !apart(b) || !runs(n) || !strings.HasPrefix(n.ID, group) {
			continue
		}
		if doesAllOf(n, o.tc) {
			return n
		}
	}
	return nil
}

// mayHoldCopy reports whether src, a file o was deleted from, can hold a
// test that does all o did: a copy has o's literals (doesAllOf), so each
// string literal of o that is plain text (quoted, no escapes) and each
// decimal number must be in src. It may say true of a file without a copy,
// never false of one with it.
func mayHoldCopy(o *testscan.TestCase, src []byte) bool {
	for _, l := range o.Literals {
		text := l
		switch {
		case len(l) >= 2 && l[0] == '"' && l[len(l)-1] == '"' && !strings.ContainsAny(l[1:len(l)-1], "\\\""):
			text = l[1 : len(l)-1]
		case l != "" && strings.Trim(l, "0123456789") == "":
		default:
			continue // spelled otherwise in the source, or not known how
		}
		if !bytes.Contains(src, []byte(text)) {
			return false
		}
	}
	return true
}

// doesAllOf reports whether test n does all that test o does: each of o's
// checks, each call as often, each literal of o's setup (those that are not
// part of a check, which the checks compare), in a body at least as long.
func doesAllOf(n, o *testscan.TestCase) bool {
	if o.BodyTokens == 0 || n.BodyTokens < o.BodyTokens || o.Dynamic || n.Dynamic {
		return false
	}
	used := make([]bool, len(n.Assertions))
	for _, x := range o.Assertions {
		found := false
		for j, y := range n.Assertions {
			if !used[j] && assertKey(x) == assertKey(y) && y.Strength >= x.Strength &&
				x.Rejects == y.Rejects && (!y.Floating || x.Floating) {
				used[j], found = true, true
				break
			}
		}
		if !found {
			return false
		}
	}
	// The same calls, as often; a call n makes more is one of its checks'
	// (utils.shouldNotHaveHeader in .expect), not setup that could make n
	// pass where o fails.
	sites := make(map[string]int, len(o.Calls))
	for _, c := range o.Calls {
		sites[c.Name] = c.Sites
	}
	checkText := checksText(n)
	for _, c := range n.Calls {
		if c.Sites < sites[c.Name] {
			return false
		}
		if c.Sites > sites[c.Name] && !strings.Contains(checkText, strings.ToLower(strings.TrimPrefix(c.Name, "."))+"(") {
			return false
		}
	}
	for _, c := range o.Calls {
		if _, ok := callSites(n, c.Name); !ok {
			return false
		}
	}
	if len(o.Literals) >= 64 {
		return false // the extractors keep 64: the rest are unknown
	}
	// The same setup: literals neither check holds, exactly.
	have, want := setupLiterals(n), setupLiterals(o)
	if len(have) != len(want) {
		return false
	}
	for l, k := range want {
		if have[l] != k {
			return false
		}
	}
	return true
}

// callSites returns how often t calls name, and whether it does.
func callSites(t *testscan.TestCase, name string) (int, bool) {
	for _, c := range t.Calls {
		if c.Name == name {
			return c.Sites, true
		}
	}
	return 0, false
}

// checksText is the text of a test's checks, lower-cased: their distinct
// subjects and every expected value.
func checksText(t *testscan.TestCase) string {
	var b strings.Builder
	subjects := map[string]bool{}
	for _, x := range t.Assertions {
		if !subjects[x.Subject] {
			subjects[x.Subject] = true
			b.WriteString(x.Subject + "\x00")
		}
		b.WriteString(x.Expected + "\x00")
	}
	return strings.ToLower(b.String())
}

// setupLiterals counts the literals of t that its checks do not hold: a
// literal is a check's as often as it occurs in the checks' expected values
// and in their distinct subjects (a request checked three times is one),
// whatever its case (supertest's header names).
func setupLiterals(t *testscan.TestCase) map[string]int {
	text := checksText(t)
	out := map[string]int{}
	for _, l := range t.Literals {
		out[l]++
	}
	for l := range out {
		out[l] -= strings.Count(text, strings.ToLower(l))
		if out[l] <= 0 {
			delete(out, l)
		}
	}
	return out
}

// splitDuplicates separates the deleted tests a kept copy covers.
func splitDuplicates(deleted []*locTest, cr *callReach) (rest []*locTest, out []gate.Finding) {
	for _, o := range deleted {
		n := duplicateOf(o, cr)
		if n == nil {
			rest = append(rest, o)
			continue
		}
		msg := fmt.Sprintf("test %s is gone from %s, but %s, which the change left as it was, does all it did: a duplicate removed.", o.tc.ID, o.side.path, n.ID)
		out = append(out, gate.NewFinding(gate.RuleTestDuplicateDeleted, gate.SeverityLow, o.side.path, o.tc.Line, o.tc.ID, "", "", msg))
	}
	return rest, out
}
