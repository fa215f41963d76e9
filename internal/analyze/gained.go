package analyze

import (
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// gainedChecks lists the helper checks the change added across all its
// files (new sides minus old sides, check by check), once per change.
func (cr *callReach) gainedChecks() []testscan.Assertion {
	if cr.gained != nil {
		return *cr.gained
	}
	had := map[string]int{}
	for _, pr := range cr.pairs {
		if pr.old != nil && pr.old.facts != nil {
			for _, x := range pr.old.facts.HelperAssertions {
				had[assertKey(x)]++
			}
		}
	}
	var out []testscan.Assertion
	for _, pr := range cr.pairs {
		if pr.new != nil && pr.new.facts != nil {
			for _, x := range pr.new.facts.HelperAssertions {
				if k := assertKey(x); had[k] > 0 {
					had[k]--
					continue
				}
				out = append(out, x)
			}
		}
	}
	cr.gained = &out
	return out
}

// movedToHelpers counts the removed checks of test o (now n) that reappear
// among the helper checks the change gained, followed from the test or not
// (a helper in a shared file the analysis does not reach): a gained check
// of the same kind, as strong, about the same thing: the same specific
// expected value, an operand word in common (the function called, an
// argument, a literal word), or, in a helper the test newly calls, a
// parameter the test now passes the old expected value to (checkAdd(t, 2,
// 3, 5) for `got != 5`). A check of another value gained by a helper
// (setup now checks the config's mode) stands in for nothing. A helper
// serves many tests, so the gain is not used up by one test.
func (cr *callReach) movedToHelpers(removed []testscan.Assertion, o, n *testscan.TestCase) int {
	if cr == nil {
		return 0
	}
	called := map[string]bool{}
	for _, c := range o.Calls {
		called[c.Name] = true
	}
	newly := map[string]bool{}
	for _, c := range n.Calls {
		if !called[c.Name] {
			newly[c.Name] = true
		}
	}
	lits := map[string]bool{}
	for _, l := range n.Literals {
		lits[l] = true
	}
	gained := cr.gainedChecks()
	used := make([]bool, len(gained))
	moved := 0
	for _, x := range removed {
		xw := operandWords(x)
		for i, y := range gained {
			if used[i] || y.Kind != x.Kind || y.Negated != x.Negated || y.Strength < x.Strength {
				continue
			}
			passed := x.Expected != "" && lits[x.Expected] && (newly[y.Helper] || newly["."+methodName(y.Helper)])
			if specificValue(x.Expected) && x.Expected == y.Expected || shared(xw, operandWords(y)) > 0 || passed {
				used[i] = true
				moved++
				break
			}
		}
	}
	return moved
}

// methodName is the method of a "Recv.name" helper name.
func methodName(h string) string {
	if i := strings.LastIndexByte(h, '.'); i >= 0 {
		return h[i+1:]
	}
	return h
}

// specificValue reports whether an expected value names something
// particular, unlike true, nil, 0 or [].
func specificValue(e string) bool {
	switch e {
	case "true", "false", "True", "False", "None", "null", "undefined", "nil", "[]", "{}", "''", `""`:
		return false
	}
	return len(e) >= 2
}
