package analyze

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/analyze/ci"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// newlyGuarded reports the checks a test kept only under a new condition:
// (or in a try block whose handler drops the failure it catches, which the
// extractors give an arm whose Cond starts "swallowed by ", high, or stores
// it in a variable, "captured by ", medium):
// a check the old version made (at least of medium strength) whose every
// copy in the new version sits in an arm of an if, a ternary or a switch
// that did not guard it before (`if os.environ.get("SLOW_CHECKS"): assert
// parse(s) == 42`). Such a check still reads as kept, but runs only when
// the condition holds. When the condition reads the environment (an
// environment variable, which the CI job sets or not) or is a constant that
// never holds, the check is off where the gate runs: high. Any other new
// condition is a medium asking to confirm the check still runs. A check of
// the same subject in another arm of the same conditional (per-variant
// expectations) keeps the check in every run, and loops and nested
// functions are not conditions (their checks run with their rows and
// calls).
func newlyGuarded(o, n *locTest) []gate.Finding {
	if partial(o.side) || partial(n.side) {
		// A version read in pieces (it does not parse) has no reliable
		// branch structure.
		return nil
	}
	var out []gate.Finding
	seen := map[string]bool{}
	for _, x := range o.tc.Assertions {
		if x.Strength < testscan.Medium || seen[assertKey(x)] {
			continue
		}
		var copies []testscan.Assertion
		for _, y := range n.tc.Assertions {
			if sameCheck(x, y) {
				copies = append(copies, y)
			}
		}
		if len(copies) == 0 {
			continue // gone or rewritten: the other rules judge it
		}
		var cond string
		for _, y := range copies {
			c := newCondition(x.Arms, y.Arms)
			if c == "" || otherArmChecks(y, n.tc.Assertions) {
				cond = ""
				break
			}
			if cond == "" {
				cond = c
			}
		}
		if cond == "" {
			continue
		}
		seen[assertKey(x)] = true
		y := copies[0]
		cond = tightCond(cond)
		sev := gate.SeverityMedium
		msg := fmt.Sprintf("check %s in test %s now sits in a branch of `%s`, so it runs only on some runs; it ran on every run before", describeAssertion(y), n.tc.ID, cond)
		switch {
		case strings.HasPrefix(cond, "captured by "):
			msg = fmt.Sprintf("check %s in test %s now sits in a try block whose handler (`%s`) catches its failure and stores it, so it no longer fails the test by itself; confirm the test still fails when the check does", describeAssertion(y), n.tc.ID, strings.TrimPrefix(cond, "captured by "))
		case testscan.IsDetached(cond):
			sev = gate.SeverityHigh
			msg = fmt.Sprintf("check %s in test %s now runs in `%s`, off the test's own thread with nothing waiting for it: it may run after the test has ended, or never, and its failure does not reach the test", describeAssertion(y), n.tc.ID, strings.TrimPrefix(cond, testscan.Detached))
		case strings.HasPrefix(cond, testscan.Inverted):
			sev = gate.SeverityHigh
			msg = fmt.Sprintf("check %s in test %s now sits in `%s`, which expects a failure: the test passes only when the check fails", describeAssertion(y), n.tc.ID, strings.TrimPrefix(cond, testscan.Inverted))
		case strings.HasPrefix(cond, testscan.Swallowed):
			sev = gate.SeverityHigh
			h := strings.TrimPrefix(cond, testscan.Swallowed)
			msg = fmt.Sprintf("check %s in test %s now sits in a try block whose handler (`%s`) catches its failure and drops it, so it can no longer fail the test", describeAssertion(y), n.tc.ID, h)
			if !strings.HasPrefix(h, "except") && h != "catch" && !strings.HasPrefix(h, "catch(") && !strings.HasPrefix(h, "catch ") {
				msg = fmt.Sprintf("check %s in test %s now sits in `%s`, which catches its failure and drops it, so it can no longer fail the test", describeAssertion(y), n.tc.ID, h)
			}
		case readsEnvironment(cond):
			sev = gate.SeverityHigh
			msg += ", and the condition reads the environment, which decides whether the check runs where the gate runs"
		case testscan.NeverLoops(cond):
			sev = gate.SeverityHigh
			msg = fmt.Sprintf("check %s in test %s now sits in `%s`, a loop whose body never runs; it ran on every run before", describeAssertion(y), n.tc.ID, cond)
		case testscan.NeverHolds(cond):
			sev = gate.SeverityHigh
			msg += ", and the condition never holds"
		default:
			msg += "; confirm that it still runs where it matters"
		}
		out = append(out, gate.NewFinding(gate.RuleCheckGuarded, sev, n.side.path, y.Line, n.tc.ID, "", cond, msg+"."))
	}
	return out
}

// sameCheck reports whether y is x made again: the same kind, subject,
// expected value and sense. A subject read through a local (`if s :=
// f(x); s != want`) is the value it was assigned (Assertion.Origin).
func sameCheck(x, y testscan.Assertion) bool {
	return x.Kind == y.Kind && x.Expected == y.Expected && x.Negated == y.Negated &&
		(x.Subject == y.Subject || subjectOf(x) != "" && subjectOf(x) == subjectOf(y))
}

// subjectOf is the value a check's subject stands for: its origin when it
// was read through a local, else the subject.
func subjectOf(a testscan.Assertion) string {
	if a.Origin != "" && !strings.HasPrefix(a.Origin, "$") {
		return a.Origin
	}
	return a.Subject
}

// newCondition returns a condition that guards a check in the new version
// (arms) and did not in the old (old): the new version sits under more
// branches (an if, a ternary, a switch) than the old one did; the one
// returned is the first whose text the old arms lack, else the innermost.
// A condition only rewritten (its text edited in place) adds no branch.
func newCondition(old, arms []testscan.Arm) string {
	// A construct that expects a failure counts as one kind whatever it
	// expects (a check in expect(fn).toThrow(/m/) that now sits in
	// expect(fn).toThrow() expected a failure already), and one that
	// expects a particular failure guards nothing new (testscan.Expecting).
	key := func(c string) string {
		if testscan.ExpectsFailure(c) {
			return testscan.Inverted
		}
		return c
	}
	var was, now []string
	for _, a := range old {
		if a.Cond != "" && (conditional(a.Cond) || testscan.ExpectsFailure(a.Cond)) {
			was = append(was, key(a.Cond))
		}
	}
	var conds []string
	for _, a := range arms {
		if a.Cond != "" && conditional(a.Cond) {
			now = append(now, key(a.Cond))
			conds = append(conds, a.Cond)
		}
	}
	if len(now) <= len(was) {
		// As many branches as before, but one of them rewritten into a
		// condition that never holds or a construct that loses the
		// failure (`if true {` edited to `if false {`, a constant flipped):
		// that one is new.
		for _, a := range arms {
			if (a.Index == 0 && testscan.NeverHolds(a.Cond) || testscan.FailureLost(a.Cond)) && conditional(a.Cond) &&
				!slices.ContainsFunc(old, func(b testscan.Arm) bool { return key(b.Cond) == key(a.Cond) }) {
				return a.Cond
			}
		}
		return ""
	}
	for i, c := range now {
		if !slices.Contains(was, c) {
			return conds[i]
		}
	}
	return conds[len(conds)-1]
}

// conditional reports whether an arm's condition is a branch (if, elif, a
// ternary, a switch or match) rather than a loop or a nested function.
func conditional(cond string) bool {
	if testscan.NeverLoops(cond) || testscan.IsDetached(cond) {
		return true // a loop that never runs guards like `if false`
	}
	if strings.HasPrefix(cond, testscan.Expecting) {
		return false
	}
	c := strings.TrimSpace(cond)
	for _, loop := range []string{"for", "range", "while", "do", "def", "func", "function", "=>", "loop"} {
		if c == loop || strings.HasPrefix(c, loop+" ") || strings.HasPrefix(c, loop+"(") {
			return false
		}
	}
	return true
}

// otherArmChecks reports whether another arm of the conditional that
// guards y makes a check of y's kind and subject: per-variant checks.
func otherArmChecks(y testscan.Assertion, all []testscan.Assertion) bool {
	for _, z := range all {
		if z.Kind == y.Kind && z.Subject == y.Subject && exclusiveArms(y.Arms, z.Arms) {
			return true
		}
	}
	return false
}

// envReads are the ways the five languages read the environment.
var envReads = []string{
	"os.environ", "os.getenv(", "getenv(", "os.Getenv(", "os.LookupEnv(", "syscall.Getenv(",
	"process.env", "import.meta.env", "Deno.env", "Bun.env",
	"System.getenv(", "System.getProperty(", "Boolean.getBoolean(", "Integer.getInteger(",
	"env::var", "env::var_os", "std::env::", "option_env!(", "env!(",
}

// readsEnvironment reports whether a condition reads an environment
// variable (or a JVM system property, set the same way by the job).
func readsEnvironment(cond string) bool {
	c := strings.Join(strings.Fields(cond), "")
	for _, r := range envReads {
		if strings.Contains(c, strings.ReplaceAll(r, " ", "")) {
			return true
		}
	}
	return false
}

// tightCond writes a condition as source is usually written, whatever
// spacing the extractor kept between its tokens (Python's `os . environ`).
func tightCond(cond string) string {
	c := strings.Join(strings.Fields(cond), " ")
	for _, p := range []string{".", "(", "[", "::"} {
		c = strings.ReplaceAll(c, " "+p+" ", p)
		c = strings.ReplaceAll(c, p+" ", p)
		c = strings.ReplaceAll(c, " "+p, p)
	}
	for _, p := range []string{")", "]", ","} {
		c = strings.ReplaceAll(c, " "+p, p)
	}
	return strings.Replace(c, "if(", "if (", 1)
}

// partial reports whether a side was read only in part (it did not parse).
func partial(s *side) bool {
	return s == nil || s.facts == nil || s.facts.Partial
}

// conftestStubs reports a conftest.py whose autouse fixtures newly replace
// a function (testscan.File.StubbedForAll) that the tests of its directory
// check directly: every one of those checks now checks the stub. The
// tests themselves are untouched, so nothing else in the change shows it.
func (a *Analyzer) conftestStubs(pairs []*pair, siblings func(dir string) []Source) []gate.Finding {
	var out []gate.Finding
	for _, pr := range pairs {
		if pr.new == nil || pr.new.facts == nil || path.Base(pr.new.path) != "conftest.py" || len(pr.new.facts.StubbedForAll) == 0 {
			continue
		}
		var names []string
		for _, n := range pr.new.facts.StubbedForAll {
			if pr.old == nil || pr.old.facts == nil || !slices.Contains(pr.old.facts.StubbedForAll, n) {
				names = append(names, n)
			}
		}
		if len(names) == 0 {
			continue
		}
		dir := path.Dir(pr.new.path)
		// The directory's test files: the change's own (their new
		// versions), then the untouched ones.
		var tests []*testscan.File
		var files []string
		changed := map[string]bool{}
		for _, q := range pairs {
			if q.new != nil && q.new.facts != nil && q.new.isTest && path.Dir(q.new.path) == dir {
				tests, files = append(tests, q.new.facts), append(files, q.new.path)
				changed[q.new.path] = true
			}
		}
		if siblings != nil {
			for _, src := range siblings(dir) {
				if changed[src.Path] || path.Ext(src.Path) != ".py" {
					continue
				}
				s := a.parse(src.Path, src.Key, src.Data, false, src.Parsed)
				if s.facts != nil {
					tests, files = append(tests, s.facts), append(files, src.Path)
				}
			}
		}
		var hits []string
		count := 0
		for i, f := range tests {
			for _, tc := range f.Tests {
				for _, x := range tc.Assertions {
					if x.Strength <= testscan.Trivial {
						continue
					}
					if c := outerCallee(x.Subject); c != "" && slices.Contains(names, c[strings.LastIndexAny(c, ".:")+1:]) {
						count++
						if len(hits) < 3 {
							hits = append(hits, fmt.Sprintf("%s in %s (%s)", tc.ID, files[i], describeAssertion(x)))
						}
					}
				}
			}
		}
		if count == 0 {
			continue
		}
		msg := fmt.Sprintf("%s now replaces %s with a stub for every test in %s (an autouse fixture): %d %s the tests make of it directly now check the stub's answer and cannot fail (%s)",
			pr.new.path, ci.QuotedList(names), dir, count, ci.Plural(count, "check", "checks"), strings.Join(hits, "; "))
		out = append(out, gate.NewFinding(gate.RuleCheckOfStub, gate.SeverityHigh, pr.new.path, 0, "", strings.Join(names, ","), "conftest-stub", msg+"."))
	}
	return out
}
