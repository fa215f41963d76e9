package analyze

import (
	"fmt"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// A test deleted while a copy of it stays is no loss: express's
// "should not override previous Content-Types" at the end of res.jsonp.js
// was the ".jsonp(object)" group's test of the same name, less one check.
// The copy must be a test the change left alone (the same body at both
// ends, in the deleted test's own file), that runs, and that does all the
// deleted test did: its every check (the same call on the same subject
// with the same expected value, at least as strong), its every call as
// often, and every literal of its setup. A test edited in the change is
// never such a copy, so a copy cannot be made for the occasion: a check
// merged into a test the change edits is judged by what that test gained
// (splitCarried).

// duplicateOf returns the unchanged test of o's file that covers o, or nil.
func duplicateOf(o *locTest, cr *callReach) *testscan.TestCase {
	pr := o.pr
	if pr.new == nil || pr.old == nil || o.tc.BodyTokens == 0 || cr == nil {
		return nil
	}
	oldW, newW := cr.whole(pr, true), cr.whole(pr, false)
	if oldW == nil || newW == nil || oldW.facts == nil || newW.facts == nil {
		return nil
	}
	before := make(map[string]string, len(oldW.facts.Tests))
	for i := range oldW.facts.Tests {
		tc := &oldW.facts.Tests[i]
		if _, seen := before[tc.ID]; seen {
			before[tc.ID] = "" // two tests of one id: neither is known unchanged
			continue
		}
		before[tc.ID] = tc.Fingerprint
	}
	for i := range newW.facts.Tests {
		n := &newW.facts.Tests[i]
		if n.ID == o.tc.ID || n.Fingerprint == "" || before[n.ID] != n.Fingerprint || !runs(n) {
			continue
		}
		if doesAllOf(n, o.tc) {
			return n
		}
	}
	return nil
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
	sites := make(map[string]int, len(n.Calls))
	for _, c := range n.Calls {
		sites[c.Name] = c.Sites
	}
	for _, c := range o.Calls {
		if sites[c.Name] < c.Sites {
			return false
		}
	}
	if len(o.Literals) >= 64 {
		return false // the extractors keep 64: the rest are unknown
	}
	have := setupLiterals(n)
	for l, k := range setupLiterals(o) {
		if have[l] < k {
			return false
		}
	}
	return true
}

// setupLiterals counts the literals of t that its checks do not hold: a
// literal is a check's as often as it occurs in the checks' expected values
// and in their distinct subjects (a request checked three times is one).
func setupLiterals(t *testscan.TestCase) map[string]int {
	var checks strings.Builder
	subjects := map[string]bool{}
	for _, x := range t.Assertions {
		if !subjects[x.Subject] {
			subjects[x.Subject] = true
			checks.WriteString(x.Subject + "\x00")
		}
		checks.WriteString(x.Expected + "\x00")
	}
	text := checks.String()
	out := map[string]int{}
	for _, l := range t.Literals {
		out[l]++
	}
	for l := range out {
		out[l] -= strings.Count(text, l)
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
		out = append(out, newFinding(gate.TestDeletion, gate.SeverityLow, "test-duplicate-deleted", o.side.path, o.tc.Line, o.tc.ID, "", "", msg))
	}
	return rest, out
}
