package analyze

import (
	"fmt"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/analyze/ci"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// compareHelpers reports checks taken out of a test helper that is still there
// (a function of a test file that asserts but is not a test: `func checkSum(t
// *testing.T, ...)`, `def assert_valid(x)`): turning a helper's t.Fatalf into
// t.Logf weakens every test that calls it, while no test changes. A helper's
// check that is removed, or replaced by one that cannot fail, counts unless the
// change gained as many checks elsewhere: in tests, or in other helpers (checks
// moved out of the helper), or the helpers it calls now reach them (see
// callReach). High when the helper is left with no check that can
// fail and a check it lost compared values; medium otherwise. Helpers are known
// by name (every extractor names them) and only in test files; Go benchmarks
// are not helpers here, since no test calls them, nor are hooks and describe
// bodies, which have no name.
func (a *Analyzer) compareHelpers(pairs []*pair, cr *callReach) []gate.Finding {
	type loss struct {
		pr         *pair
		helper     string
		lost       []testscan.Assertion
		checksLeft bool // the helper still has a check that can fail
	}
	var losses []loss
	gained := 0                     // checks the change added to any helper, and to tests
	movedKinds := map[string]bool{} // kinds some helper gained: where checks moved to
	for _, pr := range pairs {
		var old, cur []testscan.Assertion
		if pr.old != nil && pr.old.facts != nil {
			old = pr.old.facts.HelperAssertions
		}
		readable := pr.new != nil && pr.new.facts != nil && !pr.new.facts.Partial
		if readable {
			cur = pr.new.facts.HelperAssertions
		}
		_, added := assertionDiff(old, cur)
		for _, x := range added {
			if x.Strength > testscan.Trivial { // a check that cannot fail gains nothing
				gained++
			}
		}
		oldAll := byHelperAll(old)
		for name, xs := range byHelperAll(cur) {
			was := map[string]int{}
			for _, x := range oldAll[name] {
				was[x.Kind]++
			}
			for _, x := range xs {
				if was[x.Kind] > 0 {
					was[x.Kind]--
				} else {
					movedKinds[x.Kind] = true
				}
			}
		}
		if !readable || !pr.new.isTest && !goSupport(pr) {
			// Outside test files (a Rust lib.rs with its tests module, a
			// Python module) an assert is as often production code's own
			// invariant, whose removal is a behaviour change, not a weaker
			// test.
			continue
		}
		// Helpers by name; only one that is in both versions can be weakened
		// (a helper removed or renamed goes with its callers' changes).
		oldBy, curBy := byHelper(old), byHelper(cur)
		still := map[string]bool{}
		for _, name := range pr.new.facts.Helpers {
			still[name] = true
		}
		for _, name := range ci.SortedKeys(oldBy) {
			if !still[name] {
				continue
			}
			now := curBy[name]
			remOld, remNew := assertionDiff(oldBy[name], now)
			var lost []testscan.Assertion
			for _, x := range remOld {
				j := standIn(x, remNew)
				if j < 0 {
					lost = append(lost, x)
					continue
				}
				y := remNew[j]
				remNew = append(remNew[:j], remNew[j+1:]...)
				if y.Strength == testscan.Trivial && x.Strength > testscan.Trivial {
					lost = append(lost, x)
				}
			}
			if len(lost) > 0 {
				lost = cr.credit(lost, pr.old, cr.helperCalls(pr.old, true, name), pr.new, cr.helperCalls(pr.new, false, name))
			}
			if len(lost) > 0 {
				left := false
				for _, y := range now {
					left = left || y.Strength > testscan.Trivial
				}
				losses = append(losses, loss{pr, name, lost, left})
			}
		}
	}
	// A check of a kind that some helper gained moved there: a shared helper
	// (a constructor that now registers the cleanup check, say) serves many
	// callers, so one gained check accounts for all the removed ones.
	kept := losses[:0]
	for _, l := range losses {
		var still []testscan.Assertion
		for _, x := range l.lost {
			if !movedKinds[x.Kind] {
				still = append(still, x)
			}
		}
		if len(still) > 0 {
			l.lost = still
			kept = append(kept, l)
		}
	}
	losses = kept
	if len(losses) == 0 {
		return nil
	}
	gained += testAssertionGain(pairs)
	var out []gate.Finding
	for _, l := range losses {
		n := len(l.lost) - gained
		gained = max(0, gained-len(l.lost))
		if n <= 0 {
			continue
		}
		kinds := make([]string, 0, len(l.lost))
		for _, x := range l.lost {
			kinds = append(kinds, describeAssertion(x))
		}
		file := l.pr.path()
		// A helper that checked something and now checks nothing that can
		// fail is the cheat; one that keeps other checks is as often a
		// refactor that moved a check behind a call this analysis cannot
		// follow (into another package, or a helper that differs in its
		// operands).
		sev := gate.SeverityMedium
		msg := fmt.Sprintf("%d %s taken out of test helper %s in %s (%s, line %d before the change); every test that calls it checks less, unless the %s moved behind a call",
			n, ci.Plural(n, "check was", "checks were"), l.helper, file, quoteList(kinds, 3), l.lost[0].Line, ci.Plural(n, "check", "checks"))
		if !l.checksLeft && comparedValues(l.lost) {
			sev = gate.SeverityHigh
			msg = fmt.Sprintf("test helper %s in %s no longer checks anything that can fail: %s taken out (%s, line %d before the change); every test that calls it checks less",
				l.helper, file, ci.Plural(n, "one check was", fmt.Sprintf("%d checks were", n)), quoteList(kinds, 3), l.lost[0].Line)
		}
		out = append(out, gate.NewFinding(gate.RuleHelperAssertionRemoved, sev, file, l.lost[0].Line, "", l.helper, strings.Join(kinds, ";"), msg+"."))
	}
	return out
}

// comparedValues reports whether a check compared a value with an expected
// one (`got != want`, assertEquals, `assert x == y`), not only guarded a
// failure path (NoError, a panic! in an error branch), whose removal is as
// often dead code going as a test going soft.
func comparedValues(xs []testscan.Assertion) bool {
	for _, x := range xs {
		if x.Expected != "" || x.Strength == testscan.Strong {
			return true
		}
	}
	return false
}

// byHelperAll groups helper assertions by the helper that holds them, the
// unnamed ones together.
func byHelperAll(xs []testscan.Assertion) map[string][]testscan.Assertion {
	m := map[string][]testscan.Assertion{}
	for _, x := range xs {
		m[x.Helper] = append(m[x.Helper], x)
	}
	return m
}

// byHelper groups helper assertions by the helper that holds them, leaving
// out those of unnamed helpers.
func byHelper(xs []testscan.Assertion) map[string][]testscan.Assertion {
	m := byHelperAll(xs)
	delete(m, "")
	return m
}

// assertionDiff drops the assertions two lists share and returns what is left
// of each. Of several equal checks, those about a value assigned from the
// same source (Assertion.Origin) are shared first: the one left over is the
// one whose value is gone (of two `t.Fatal(err)`, the one after `err :=
// c.Create()` when that call is now checked through a helper).
func assertionDiff(old, cur []testscan.Assertion) (remOld, remNew []testscan.Assertion) {
	oldUsed := make([]bool, len(old))
	curUsed := make([]bool, len(cur))
	share := func(key func(testscan.Assertion) string) {
		at := map[string][]int{}
		for j, y := range cur {
			if !curUsed[j] {
				k := key(y)
				at[k] = append(at[k], j)
			}
		}
		for i, x := range old {
			if oldUsed[i] {
				continue
			}
			k := key(x)
			if js := at[k]; len(js) > 0 {
				oldUsed[i], curUsed[js[0]] = true, true
				at[k] = js[1:]
			}
		}
	}
	share(func(x testscan.Assertion) string { return assertKey(x) + "\x00" + x.Origin })
	share(assertKey)
	for i, x := range old {
		if !oldUsed[i] {
			remOld = append(remOld, x)
		}
	}
	for j, y := range cur {
		if !curUsed[j] {
			remNew = append(remNew, y)
		}
	}
	return remOld, remNew
}

// testAssertionGain is how many assertions the change's tests gained in all:
// new sides minus old sides, over every file.
func testAssertionGain(pairs []*pair) int {
	n := 0
	for _, pr := range pairs {
		if pr.new != nil && pr.new.facts != nil {
			for _, t := range pr.new.facts.Tests {
				n += len(t.Assertions)
			}
		}
		if pr.old != nil && pr.old.facts != nil {
			for _, t := range pr.old.facts.Tests {
				n -= len(t.Assertions)
			}
		}
	}
	return max(0, n)
}

// goSupport reports whether a pair is a Go test support file on both sides
// (a non-test file that imports "testing" and declares assertion helpers,
// such as testutil.Equals): its helpers are test code.
func goSupport(pr *pair) bool {
	return pr.old != nil && pr.new != nil && pr.old.facts != nil && pr.new.facts != nil &&
		pr.new.facts.Lang == testscan.Go && len(pr.old.facts.Helpers) > 0 && len(pr.new.facts.Helpers) > 0
}
