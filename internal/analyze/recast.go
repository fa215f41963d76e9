package analyze

import (
	"slices"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// A test rewritten for a new mechanism can keep nothing of its text but
// what it is about: test_faulthandler_enable became
// test_capture_fd_faulthandler when CliRunner gained capture modes (pallets/click
// d959898db2), the same faulthandler.enable() inside a command, checked
// the same ways (exit_code == 0, a string in the output), with other
// strings. Such a test is paired by a library call that only it, among
// the old tests of the change's files, and only one new test make
// (sameUse), with a word of its name in common and at least its checks:
// as many, each of the same kind and sense, at least as strong, of the
// same thing. What
// changed in its values is reported (dataChanged, medium); a test that
// makes the call and checks less, or more weakly, is not this one.

// sameUse returns the one new test that o was recast into, or nil.
func sameUse(o *locTest, olds, news []*locTest, ok func(*locTest) bool) *locTest {
	if _, param := baseID(o.tc.ID); param || len(o.tc.Uses) == 0 || checks(o.tc) == 0 {
		return nil
	}
	for _, u := range o.tc.Uses {
		if !strings.Contains(u, ".") {
			continue // a bare imported name: often the module's main function
		}
		if usedBy(u, olds, o) != 1 {
			continue
		}
		var found *locTest
		n := 0
		for _, c := range news {
			if c.side.ext == o.side.ext && slices.Contains(c.tc.Uses, u) {
				n++
				found = c
			}
		}
		if n != 1 || !ok(found) || !runs(found.tc) || !collected(found) {
			continue
		}
		if _, param := baseID(found.tc.ID); param {
			continue
		}
		if nameShared(o, []*locTest{found}) && keepsCheckKinds(o.tc, found.tc) {
			return found
		}
	}
	return nil
}

// usedBy counts the tests of ts, in o's language, that call u.
func usedBy(u string, ts []*locTest, o *locTest) int {
	n := 0
	for _, t := range ts {
		if t.side.ext == o.side.ext && slices.Contains(t.tc.Uses, u) {
			n++
		}
	}
	return n
}

// keepsCheckKinds reports whether n makes a check for each check of o of
// at least medium strength: each its own, of the same kind and sense, at
// least as strong, with one operand the same (the subject, or what a
// string is looked for in): the same thing checked, maybe against
// another value.
func keepsCheckKinds(o, n *testscan.TestCase) bool {
	used := make([]bool, len(n.Assertions))
	for _, x := range o.Assertions {
		if x.Strength < testscan.Medium {
			continue
		}
		found := false
		for i, y := range n.Assertions {
			if !used[i] && y.Kind == x.Kind && y.Negated == x.Negated && y.Strength >= x.Strength &&
				(y.Subject == x.Subject || y.Expected == x.Expected) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
