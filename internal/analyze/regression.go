package analyze

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/ralph-gate/ralph-gate/collectors"
	"github.com/ralph-gate/ralph-gate/internal/analyze/ci"
	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// maxNamed bounds the test names a package-level finding spells out.
const maxNamed = 10

// brokenUnits finds the packages, modules or suites that did not run
// properly at HEAD: a Go package that did not build, a test binary that
// crashed, timed out or exited early (its failure recorded as pkg.TestMain,
// or tests that never finished), a pytest module that failed to import (an
// errored entry named like the module), and whatever the collectors'
// cross-checks found wrong with the evidence (Integrity). Each maps to the
// first line that says why.
func brokenUnits(head *collectors.Result) map[string]string {
	units := map[string]string{}
	add := func(unit, why string) {
		if unit == "" {
			return
		}
		if _, ok := units[unit]; !ok {
			units[unit] = why
		}
	}
	for _, b := range head.BuildFailures {
		why := "fails to build"
		if l := firstLineOf(b.Output); l != "" {
			why += ": " + l
		}
		add(b.Package, why)
		add(b.ImportPath, why)
	}
	for _, p := range head.Integrity {
		add(p.Package, p.Problem)
	}
	for t := range head.Tests.All() {
		if t.Outcome != collectors.Failed && t.Outcome != collectors.Errored {
			continue
		}
		switch {
		case t.Name == "TestMain" && t.Suite != "":
			add(t.Suite, "its test binary failed outside any test (crashed, timed out or exited early): "+orNone(firstLineOf(t.Message)))
		case strings.HasPrefix(t.Message, "test did not finish"):
			add(t.Suite, "its test binary crashed or timed out while "+t.Name+" ran")
		case t.Suite == "" || t.Name != "" && looksLikeModule(t.Name):
			// pytest's collection error: <testcase classname="" name="tests.test_x">
			add(t.Name, "it failed to load: "+orNone(firstLineOf(t.Message)))
		}
	}
	return units
}

// looksLikeModule reports a JUnit entry named like a module or file rather
// than a test ("tests.test_calc", "tests/test_calc.py").
func looksLikeModule(name string) bool {
	return strings.HasSuffix(name, ".py") || strings.Contains(name, "/") ||
		strings.Contains(name, ".") && !strings.ContainsAny(name, " ([")
}

// unitOf returns the broken unit a BASE test belongs to: its suite, or a
// module its id lies under.
func unitOf(t collectors.Test, units map[string]string) (string, bool) {
	if _, ok := units[t.Suite]; ok && t.Suite != "" {
		return t.Suite, true
	}
	for u := range units {
		if u != "" && (strings.HasPrefix(t.ID, u+".") || strings.HasPrefix(t.ID, u+"::") || strings.HasPrefix(t.Suite, u+".")) {
			return u, true
		}
	}
	return "", false
}

// regressionFindings reports test_regression: each test that passed at BASE
// and fails at HEAD, and each unit (package, module) that ran at BASE and is
// broken at HEAD, naming the tests that have no result there. static are the
// static findings (a test the diff shows deleted is a deletion, never a
// regression). It returns the BASE tests it accounted for, so that they are
// not reported again as deleted.
func regressionFindings(base, head *collectors.Result, staticDeleted map[string]*gate.Finding) ([]gate.Finding, map[string]bool) {
	units := brokenUnits(head)
	for u, why := range vanishedUnits(base, head, staticDeleted) {
		if _, ok := units[u]; !ok {
			units[u] = why
		}
	}
	unfinished := unfinishedUnits(base, head)
	for u, why := range unfinished {
		if _, ok := units[u]; !ok {
			units[u] = why
		}
	}
	accounted := map[string]bool{}
	var out []gate.Finding
	noResult := map[string][]collectors.Test{}
	ranAtBase := map[string]int{}
	for t := range base.Tests.All() {
		h, ok := head.Tests.Get(t.ID)
		if u, broken := unitOf(t, units); broken {
			ranAtBase[u]++
			if !ok && staticDeleted[leaf(t.ID)] == nil {
				noResult[u] = append(noResult[u], t)
				accounted[t.ID] = true
				continue
			}
		}
		if !ok || t.Outcome != collectors.Passed {
			continue
		}
		if h.Outcome != collectors.Failed && h.Outcome != collectors.Errored {
			continue
		}
		msg := fmt.Sprintf("test %s passed at BASE and fails at HEAD", t.ID)
		if m := FailureLines(h.Message, 3); m != "" {
			msg += ": " + m
		}
		file := h.File
		if file == "" {
			file = t.File
		}
		f := measuredFinding(gate.RuleTestNowFails, gate.SeverityHigh, file, t.ID, msg+".")
		out = append(out, f)
	}
	var names []string
	for u := range units {
		names = append(names, u)
	}
	sort.Strings(names)
	reported := map[string]bool{}
	for _, u := range names {
		missing := noResult[u]
		brokenNow := false
		for _, b := range head.BuildFailures {
			brokenNow = brokenNow || b.Package == u || b.ImportPath == u
		}
		_, notFinished := unfinished[u]
		if ranAtBase[u] == 0 || len(missing) == 0 && !brokenNow && !notFinished {
			continue // new at HEAD, or every test still has its own result
		}
		if base.Tests != nil && brokenAtBase(base, u) {
			continue // it did not run properly at BASE either
		}
		sort.Slice(missing, func(i, j int) bool { return missing[i].ID < missing[j].ID })
		msg := fmt.Sprintf("%s ran %d %s at BASE and at HEAD %s", u, ranAtBase[u], ci.Plural(ranAtBase[u], "test", "tests"), units[u])
		if len(missing) > 0 {
			msg += fmt.Sprintf("; %d %s no result at HEAD: %s", len(missing), ci.Plural(len(missing), "test has", "tests have"), testNames(missing))
		}
		f := measuredFinding(gate.RulePackageBroken, gate.SeverityHigh, missing0File(missing), "", msg+".")
		f.Symbol = u
		f.ID = gate.MakeID(gate.RulePackageBroken.Type, gate.RulePackageBroken.ID, "", u, "")
		out = append(out, f)
		reported[u] = true
	}
	out = append(out, integrityFindings(base, head, reported)...)
	return out, accounted
}

// integrityFindings reports what the collectors' cross-checks found wrong
// with HEAD's evidence (a JUnit suite that declares more tests than it
// lists) where BASE's evidence for the same unit added up, unless a package-broken finding already
// names the unit: evidence that does not add up never reads as a pass.
func integrityFindings(base, head *collectors.Result, reported map[string]bool) []gate.Finding {
	atBase := map[string]bool{}
	for _, p := range base.Integrity {
		atBase[p.Package] = true
	}
	var out []gate.Finding
	for _, p := range head.Integrity {
		if reported[p.Package] || atBase[p.Package] {
			continue
		}
		f := measuredFinding(gate.RuleEvidenceIntegrity, gate.SeverityHigh, "", "", fmt.Sprintf("%s: %s.", p.Package, strings.TrimSuffix(p.Problem, ".")))
		f.Symbol = p.Package
		f.ID = gate.MakeID(gate.RuleEvidenceIntegrity.Type, gate.RuleEvidenceIntegrity.ID, "", p.Package, p.Problem)
		out = append(out, f)
	}
	return out
}

// vanishedUnits finds the suites (Go packages, test modules) that ran tests
// at BASE and have no result at all at HEAD, although the diff deleted none of
// their tests and none of them turned up elsewhere (a move): a test binary
// that exited before its tests ran (status 0, so go test says "ok"), or a
// runner that no longer reaches them.
func vanishedUnits(base, head *collectors.Result, staticDeleted map[string]*gate.Finding) map[string]string {
	headSuites := map[string]bool{}
	headLeaves := map[string]bool{}
	for t := range head.Tests.All() {
		headSuites[t.Suite] = true
		headLeaves[leaf(t.ID)] = true
	}
	candidate := map[string]bool{}
	spoiled := map[string]bool{}
	for t := range base.Tests.All() {
		if t.Suite == "" || headSuites[t.Suite] {
			continue
		}
		if staticDeleted[leaf(t.ID)] != nil || headLeaves[leaf(t.ID)] {
			spoiled[t.Suite] = true
			continue
		}
		candidate[t.Suite] = true
	}
	why := "reports no test at all: its test binary exited before its tests ran, or the runner no longer reaches them"
	if len(head.BuildFailures) > 0 {
		// A suite named apart from what did not build (a Java class of a
		// Maven module) has no result because of it, as far as one can
		// tell: say what failed.
		b := head.BuildFailures[0]
		why = "reports no test at all, and at HEAD " + b.Package + " fails to build"
		if l := firstLineOf(b.Output); l != "" {
			why += ": " + l
		}
		if n := len(head.BuildFailures) - 1; n > 0 {
			why += fmt.Sprintf(" (and %d more)", n)
		}
	}
	out := map[string]string{}
	for s := range candidate {
		if !spoiled[s] {
			out[s] = why
		}
	}
	return out
}

// unfinishedUnits finds the Go packages whose test binary did not reach the
// end of its run at HEAD, whatever its output said: BASE's cover profile
// measures the package's code, HEAD ran tests in it, and HEAD's profile holds
// nothing of it. The testing package writes a test binary's coverage only
// after its last test, so a binary that printed passing results and left
// early (syscall.Exit(0) after forging "--- PASS" lines, which test2json
// cannot tell from its own) wrote none. Only cover profiles (statement
// blocks) say this; line-based reports are written by the runner, not by the
// process under test.
func unfinishedUnits(base, head *collectors.Result) map[string]string {
	out := map[string]string{}
	if base.Coverage == nil || head.Coverage == nil || base.Coverage.Unit() != collectors.UnitStatement && base.Coverage.Unit() != collectors.UnitMixed {
		return out
	}
	covered := func(c *collectors.Coverage) map[string]bool {
		pkgs := map[string]bool{}
		for p, f := range c.Files {
			if len(f.Blocks()) > 0 {
				pkgs[path.Dir(p)] = true
			}
		}
		return pkgs
	}
	atBase, atHead := covered(base.Coverage), covered(head.Coverage)
	failed := map[string]bool{}
	for t := range head.Tests.All() {
		if t.Suite != "" && atBase[t.Suite] && !atHead[t.Suite] {
			out[t.Suite] = "wrote no coverage profile although its tests report results: its test binary ended before the testing package finished (an exit from inside a test), so the results it printed cannot be trusted"
			failed[t.Suite] = failed[t.Suite] || isFailed(t.Outcome)
		}
	}
	for s := range failed {
		if failed[s] {
			// A crash shows as a failed test with its own message (a
			// test_regression already): only a run that claims success
			// needs the profile to give it away.
			delete(out, s)
		}
	}
	return out
}

func isFailed(o collectors.Outcome) bool { return o == collectors.Failed || o == collectors.Errored }

// brokenAtBase reports whether a unit was already broken at BASE.
func brokenAtBase(base *collectors.Result, unit string) bool {
	_, ok := brokenUnits(base)[unit]
	return ok
}

func missing0File(ts []collectors.Test) string {
	if len(ts) > 0 {
		return ts[0].File
	}
	return ""
}

func testNames(ts []collectors.Test) string {
	var names []string
	for i, t := range ts {
		if i == maxNamed {
			names = append(names, fmt.Sprintf("and %d more", len(ts)-maxNamed))
			break
		}
		names = append(names, t.ID)
	}
	return strings.Join(names, ", ")
}

// FailureLines is the first n meaningful lines of a failure message, on one
// line: the assertion a person reads first, without test2json's framing.
func FailureLines(msg string, n int) string {
	var keep []string
	for _, l := range strings.Split(strings.TrimSpace(msg), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "=== ") || strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "# ") || l == "FAIL" {
			continue
		}
		keep = append(keep, l)
		if len(keep) == n {
			break
		}
	}
	return clipString(strings.Join(keep, " / "), 300)
}

func firstLineOf(s string) string {
	return FailureLines(s, 1)
}

func orNone(s string) string {
	if s == "" {
		return "no output"
	}
	return s
}

func clipString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}
