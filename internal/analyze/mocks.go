package analyze

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/analyze/ci"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// AIWG's LP-014, Mock Over-Usage, in the two shapes a change can give it
// (from the mocks the extractors read, testscan.TestCase.Mocks):
//
//   - mocked-to-expected (high): a test present at BASE runs with a mock
//     the change added (or whose answer it changed) that answers exactly
//     the literal one of its checks, there before the change, expects
//     (get_price patched to return 20, assert total(cart) == 20 kept): the
//     expectation is unchanged and the mock makes it pass;
//   - mock-of-subject (medium): a test the change added or edited now
//     replaces the very function its checks call (@patch("pkg.calc.total")
//     then assert calc.total(..) == 5, vi.mock of the test file's own
//     module), so its checks read the mock's answer.
//
// A mock of a collaborator whose answer the subject transforms (get_price
// mocked to 10, total asserted 20), a mock of another module, a partial
// mock that keeps the subject real and checks of how a mock was called are
// neither. Both are assertion_weakening: the check stays, but no longer
// checks the code.

// mockFindings reports LP-014 on test n, o its version at BASE (nil for a
// test the change added): at most one finding per test.
func mockFindings(o, n *locTest) []gate.Finding {
	nt := n.tc
	if len(nt.Mocks) == 0 {
		return nil
	}
	var ot *testscan.TestCase
	if o != nil {
		ot = o.tc
	}
	file, id := n.side.path, nt.ID
	if ot != nil {
		for _, m := range nt.Mocks {
			if m.Returns == "" || hadMock(ot, m, func(x testscan.Mock) bool { return x.Returns == m.Returns }) {
				continue
			}
			if y, ok := keptCheckOf(ot, nt, m.Returns); ok {
				msg := fmt.Sprintf("test %s, which existed before the change, now runs with %s replaced by a mock answering %s, the value its unchanged check %s expects: the mock makes the check pass without the code computing it",
					id, mockName(m), ci.Clip(m.Returns), describeAssertion(y))
				return []gate.Finding{gate.NewFinding(gate.RuleMockedToExpected, gate.SeverityHigh, file, y.Line, id, "", "mock:"+m.Target+"."+m.Name+"="+m.Returns, msg+".")}
			}
		}
	}
	for _, m := range nt.Mocks {
		if !m.Subject || ot != nil && hadMock(ot, m, func(x testscan.Mock) bool { return x.Subject }) {
			continue
		}
		answer := ""
		if m.Returns != "" {
			answer = fmt.Sprintf(", answering %s", ci.Clip(m.Returns))
		}
		what := "replaces the function its checks call"
		if m.Name == "" {
			what = "replaces its own module, whose functions its checks call,"
		}
		msg := fmt.Sprintf("test %s %s with a mock (%s%s): its checks read the mock's answer, not the code's", id, what, mockName(m), answer)
		return []gate.Finding{gate.NewFinding(gate.RuleMockOfSubject, gate.SeverityMedium, file, m.Line, id, "", "mock:"+m.Target+"."+m.Name, msg+".")}
	}
	return nil
}

// hadMock reports whether the old test ran with a mock of what m replaces
// that also satisfied same.
func hadMock(ot *testscan.TestCase, m testscan.Mock, same func(testscan.Mock) bool) bool {
	return slices.ContainsFunc(ot.Mocks, func(x testscan.Mock) bool {
		return x.Target == m.Target && x.Name == m.Name && same(x)
	})
}

// keptCheckOf returns a check of the new test that expects the literal v
// exactly, made word for word by the old test as well (where it was an
// exact check): an expectation the change left alone. Checks of how a mock
// was called are not expectations of a value.
func keptCheckOf(ot, nt *testscan.TestCase, v string) (testscan.Assertion, bool) {
	for _, y := range nt.Assertions {
		if y.Expected != v || y.Negated || !testscan.ValueCheck(y.Kind) {
			continue
		}
		k := assertKey(y)
		if slices.ContainsFunc(ot.Assertions, func(x testscan.Assertion) bool { return x.Strength >= testscan.Strong && assertKey(x) == k }) {
			return y, true
		}
	}
	return testscan.Assertion{}, false
}

// mockName names what a mock replaces: "pkg.calc.total", "getPrice of
// ../src/prices", "../src/calc".
func mockName(m testscan.Mock) string {
	if m.Name == "" || m.Target == m.Name || strings.HasSuffix(m.Target, "."+m.Name) {
		return m.Target
	}
	return m.Name + " of " + m.Target
}

// withMockFindings adds a test's LP-014 finding (mf) to out, whose
// findings from start on are the same test's: a mocked-to-expected finding
// stands for a check-of-stub finding on its check (the more exact
// reading); a high assertion_weakening finding (check-of-stub, a check
// rewritten into one of the stub, assertion-weakened) stands for a
// mock-of-subject one, which would say the same thing again.
func withMockFindings(out []gate.Finding, start int, mf []gate.Finding) []gate.Finding {
	if len(mf) == 0 {
		return out
	}
	switch mf[0].Rule {
	case gate.RuleMockedToExpected.ID:
		kept := out[:start]
		for _, f := range out[start:] {
			if f.Rule != gate.RuleCheckOfStub.ID || f.Line != mf[0].Line {
				kept = append(kept, f)
			}
		}
		out = kept
	case gate.RuleMockOfSubject.ID:
		if slices.ContainsFunc(out[start:], func(f gate.Finding) bool {
			return f.Type == gate.AssertionWeakening && f.Severity >= gate.SeverityHigh
		}) {
			return out
		}
	}
	return append(out, mf...)
}
