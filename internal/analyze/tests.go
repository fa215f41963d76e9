package analyze

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/ralph-gate/ralph-gate/internal/analyze/ci"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// locTest is a test case on one side of a change.
type locTest struct {
	pr   *pair
	side *side
	tc   *testscan.TestCase
	k    string // key, once asked: the matching asks for it in every loop
}

func (l *locTest) key() string {
	if l.k == "" {
		l.k = l.side.path + "\x00" + l.tc.ID
	}
	return l.k
}

// compareTests matches the tests of the old sides with those of the new sides
// (same file, moved to another file, renamed with the same body, or folded into a
// parametrized test) and reports deletions, new skips and weakened assertions.
func (a *Analyzer) compareTests(pairs []*pair, cr *callReach, ci *ci.Base, exists func(string, bool) bool) []gate.Finding {
	var olds, news []*locTest
	outside := map[string]*pair{} // test id -> a pair whose uncollected new side holds it
	// Tests the runner does not collect on either side (a fixture under
	// testdata/, a file named off the runner's pattern) are not tests of
	// the project: a test that moves there is lost, not moved.
	for _, pr := range pairs {
		if pr.old != nil && pr.old.facts != nil && !pr.uncollected(pr.old) {
			for i := range pr.old.facts.Tests {
				olds = append(olds, &locTest{pr: pr, side: pr.old, tc: &pr.old.facts.Tests[i]})
			}
		}
		if pr.new != nil && pr.new.facts != nil && pr.uncollected(pr.new) {
			for i := range pr.new.facts.Tests {
				if outside[pr.new.facts.Tests[i].ID] == nil {
					outside[pr.new.facts.Tests[i].ID] = pr
				}
			}
		} else if pr.new != nil && pr.new.facts != nil {
			for i := range pr.new.facts.Tests {
				news = append(news, &locTest{pr: pr, side: pr.new, tc: &pr.new.facts.Tests[i]})
			}
		}
	}
	if len(olds) == 0 && len(news) == 0 {
		return nil
	}
	gain := helperGain(pairs)
	// Index the new side.
	byPathID := map[string]*locTest{}
	byID := map[string][]*locTest{}
	byFP := map[string][]*locTest{}
	for _, n := range news {
		byPathID[n.key()] = n
		byID[n.tc.ID] = append(byID[n.tc.ID], n)
		if n.tc.Fingerprint != "" && n.tc.BodyTokens > 0 {
			byFP[n.tc.Fingerprint] = append(byFP[n.tc.Fingerprint], n)
		}
	}
	// A new test is "fresh" when no old test had its id in the file it lives in:
	// only fresh tests can be the destination of a move or a rename.
	oldKeys := map[string]bool{}
	for _, o := range olds {
		np := o.pr.fc.NewPath
		if np == "" {
			np = o.side.path
		}
		oldKeys[np+"\x00"+o.tc.ID] = true
	}
	fresh := func(n *locTest) bool { return !oldKeys[n.key()] }
	matched := map[*locTest]bool{}

	var out []gate.Finding
	m := a.matchTests(olds, news, byPathID, byID, byFP, fresh, matched)
	decls := &codeDecls{pairs: pairs} // the production names, read when asked
	var made []*locTest               // the tests the change created that run, once needed (withoutCarried)
	var madeIdx *madeTests            // made, indexed once
	var deleted []*locTest
	for _, o := range olds {
		n, how := m[o].n, m[o].how
		if n == nil {
			deleted = append(deleted, o)
			continue
		}
		start := len(out)
		out = append(out, a.compareSkips(o, n, ci)...)
		out = append(out, compareRetries(o, n)...)
		if o.tc.Fingerprint == "" || o.tc.Fingerprint != n.tc.Fingerprint || armsDiffer(o.tc, n.tc) {
			out = append(out, newlyGuarded(o, n)...)
		}
		if how == "recast" {
			// Paired by what it exercises and how it checks, not by
			// its values: values it no longer has are rewritten ones.
			out = append(out, dataChanged(o, n)...)
			how = "reworked"
		}
		if made == nil && (how == "reworked" || how == "merged" || o.tc.Fingerprint == "" || o.tc.Fingerprint != n.tc.Fingerprint) {
			made = []*locTest{}
			for _, c := range news {
				if fresh(c) && runs(c.tc) {
					made = append(made, c)
				}
			}
			madeIdx = indexMade(made)
		}
		if how == "reworked" || how == "merged" {
			fs := a.compareReworked(o, n, cr)
			fs = append(fs, reworkedInverted(o, n, cr)...)
			if len(fs) == 0 && how == "reworked" {
				// Checks the change moved into other tests it created
				// are kept; those put in the reworked test count there.
				var others []*locTest
				for _, c := range made {
					if c != n {
						others = append(others, c)
					}
				}
				fs = reworkedLost(o, n, others, cr)
			}
			if len(fs) == 0 && how == "reworked" {
				fs = reportRow(o, n)
			}
			out = append(out, fs...)
		} else if o.tc.Fingerprint == "" || o.tc.Fingerprint != n.tc.Fingerprint || !sameStrengths(o.tc, n.tc) {
			// (A body kept word for word can still check less: what its
			// file does around it, a module mock or an autouse fixture
			// replacing the code it checks, changes how strong its checks
			// are.)
			// Checks the change moved out of the test into a test it
			// created (a split) are kept, not removed.
			ow := withoutCarried(o, n, madeIdx, decls)
			fs := a.compareAssertions(ow, n, gain, cr)
			fs = append(fs, a.compareReach(o, n, cr)...)
			if len(fs) == 0 {
				fs = dataChanged(o, n)
			}
			out = append(out, fs...)
		}
		out = withMockFindings(out, start, mockFindings(o, n))
	}
	// A test the change added that mocks the code it checks (LP-014).
	for _, n := range news {
		if fresh(n) && !matched[n] {
			out = append(out, mockFindings(nil, n)...)
		}
	}
	deleted, carried := splitCarried(deleted, news, fresh, gainedChecks(m))
	out = append(out, reportCarried(carried)...)
	deleted, lossy := splitRowLosses(deleted, news, fresh)
	out = append(out, lossy...)
	deleted, dups := splitDuplicates(deleted, cr)
	out = append(out, dups...)
	deleted, replaced := splitReplaced(deleted, news, func(n *locTest) bool { return fresh(n) && !matched[n] }, decls.removed, cr)
	out = append(out, a.reportReplaced(replaced)...)
	var added []*locTest // the tests the change added that nothing was paired with
	for _, n := range news {
		if fresh(n) && !matched[n] && runs(n.tc) {
			added = append(added, n)
		}
	}
	recast := func(o *locTest) string { return cr.recastTest(o, added) }
	out = append(out, a.reportDeletions(deleted, outside, &codeUse{decls: decls, exists: exists, recast: recast})...)
	out = append(out, a.reportOnly(pairs)...)
	return out
}

// uncollected reports whether the tests of side s of the pair are out of
// the runner's reach. In Go, JavaScript and Rust (which has no inheritance)
// the file's name and place, or a Rust module nothing declares, decide
// it. Python and Java test classes may inherit test methods from a base in
// a file the runner does not collect itself (tests/base.py, an abstract
// FooTestBase), so there only a file renamed from a collected name to an
// uncollected one loses its tests.
func (pr *pair) uncollected(s *side) bool {
	if pr.unbuilt(s) != "" {
		return true
	}
	if s.outOfReach == "" {
		return false
	}
	switch s.ext.Lang() {
	case testscan.Go, testscan.JavaScript, testscan.Rust:
		return true
	}
	return s == pr.new && pr.old != nil && pr.old.ext != nil && pr.old.outOfReach == ""
}

// replacement is a group of deleted tests whose file gained new tests that check
// at least as much: a rewrite (a framework migration, cases folded into a table,
// a suite turned into plain tests) rather than a loss of checks.
type replacement struct {
	deleted []*locTest
	by      []*locTest
}

// unbuilt says why go test does not build the new side of an added Go test
// file whose build constraint no default run satisfies (//go:build never,
// //go:build integration): a test moved there is out of the runner's reach.
// A constraint put on a file that was built (same or renamed file) is
// compareConstraints' finding.
func (pr *pair) unbuilt(s *side) string {
	if s != pr.new || pr.old != nil || s.facts == nil || s.facts.Lang != testscan.Go || builtByDefault(s.facts.Constraint) {
		return ""
	}
	return "it builds only under //go:build " + s.facts.Constraint + ", which no default go test run sets"
}

// reachWhy says why the runner does not collect the new side of pr.
func (pr *pair) reachWhy() string {
	if why := pr.unbuilt(pr.new); why != "" {
		return why
	}
	return pr.new.outOfReach
}

// splitReplaced separates the deleted tests of files that gained unmatched new
// tests with at least as many medium-or-stronger assertions, exercising what
// the deleted ones did (sameTargets), from the deletions that nothing
// replaced.
func splitReplaced(deleted, news []*locTest, unmatched func(*locTest) bool, removed func(string) bool, cr *callReach) ([]*locTest, []replacement) {
	byFile := map[string][]*locTest{}
	var order []string
	for _, o := range deleted {
		if o.pr.new == nil {
			continue
		}
		if _, ok := byFile[o.pr.new.path]; !ok {
			order = append(order, o.pr.new.path)
		}
		byFile[o.pr.new.path] = append(byFile[o.pr.new.path], o)
	}
	replaced := map[*locTest]bool{}
	var groups []replacement
	for _, file := range order {
		// A helper's checks count when they are as strong as the
		// strongest check the deleted tests made: setup checks in a
		// helper (NoError) stand in for no require.Equal.
		strongest := testscan.Medium
		for _, o := range byFile[file] {
			strongest = max(strongest, maxStrength(o.tc))
		}
		var by []*locTest
		have := 0
		reached := map[string]bool{} // what the new tests call, through their helpers too
		for _, n := range news {
			if n.side.path == file && unmatched(n) && runs(n.tc) { // a skipped test replaces nothing
				by = append(by, n)
				k, calls := cr.through(n, strongest)
				have += checks(n.tc) + k
				for c := range calls {
					reached[c] = true
				}
			}
		}
		kept := keptByRows(byFile[file], by)
		need := 0
		for _, o := range kept {
			need += checks(o.tc)
		}
		if len(kept) == 0 || len(by) == 0 || have == 0 || have < need || !sameTargets(kept, by, reached, removed) {
			continue
		}
		for _, o := range kept {
			replaced[o] = true
		}
		groups = append(groups, replacement{deleted: kept, by: by})
	}
	var rest []*locTest
	for _, o := range deleted {
		if !replaced[o] {
			rest = append(rest, o)
		}
	}
	return rest, groups
}

// sameStrengths reports whether two versions of a test rate their checks
// the same, one by one.
func sameStrengths(o, n *testscan.TestCase) bool {
	if len(o.Assertions) != len(n.Assertions) {
		return false
	}
	for i := range o.Assertions {
		if o.Assertions[i].Strength != n.Assertions[i].Strength {
			return false
		}
	}
	return true
}

// usesKnown reports whether some test of by records the imported
// functions it calls.
func usesKnown(by []*locTest) bool {
	for _, n := range by {
		if len(n.tc.Uses) > 0 {
			return true
		}
	}
	return false
}

// sameUseName reports whether two imported functions, as called, are the same
// one: the same name, however it was imported (Option, click.Option).
func sameUseName(a, b string) bool {
	return a[strings.LastIndexByte(a, '.')+1:] == b[strings.LastIndexByte(b, '.')+1:]
}

// usesKept reports whether a test of by calls one of uses, or the change
// deleted one of them from production code.
func usesKept(uses []string, by []*locTest, removed func(string) bool) bool {
	for _, u := range uses {
		if removed(u) || removed(u[strings.LastIndexByte(u, '.')+1:]) {
			return true
		}
		for _, n := range by {
			if slices.ContainsFunc(n.tc.Uses, func(v string) bool { return sameUseName(u, v) }) {
				return true
			}
		}
	}
	return false
}

// sameTargets reports whether the new tests exercise what the deleted ones
// did: a function each deleted test called (calls: what the new tests call,
// through their helpers too; or one the change deleted from
// production code with it, codeDecls.removed: the new tests test what replaced
// it), or, for a test whose scanner records no calls (a Python test
// calling imported code), half of its literal inputs and expected values
// or a word of its name. A failing test swapped for an easy one on other code
// (TestParse deleted, TestOther added with as many checks) replaces
// nothing.
func sameTargets(deleted, by []*locTest, calls map[string]bool, removed func(string) bool) bool {
	lits := map[string]bool{}
	for _, n := range by {
		for _, l := range n.tc.Literals {
			lits[l] = true
		}
	}
	for _, o := range deleted {
		plain, kept := 0, 0
		for _, c := range o.tc.Calls {
			if strings.HasPrefix(c.Name, ".") {
				continue
			}
			plain++
			if calls[c.Name] || removed(c.Name) {
				kept++
			}
		}
		if plain > 0 {
			if kept == 0 {
				return false
			}
			continue
		}
		// The imported functions a test calls (Uses, where the
		// extractor reads them): one of the deleted test's is still
		// called, or was deleted with it.
		if len(o.tc.Uses) > 0 && usesKnown(by) && !usesKept(o.tc.Uses, by, removed) {
			return false
		}
		seen, hit := map[string]bool{}, 0
		for _, l := range o.tc.Literals {
			if seen[l] {
				continue
			}
			seen[l] = true
			if lits[l] {
				hit++
			}
		}
		if 2*hit < len(seen) && !nameShared(o, by) {
			return false
		}
	}
	return true
}

// nameShared reports whether a new test's name shares a word of five
// letters or more with the deleted test's (test_faulthandler_enable and
// test_capture_fd_faulthandler): what the test is about, where its scanner
// records no calls to compare.
func nameShared(o *locTest, by []*locTest) bool {
	words := func(name string) []string {
		return strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return !unicode.IsLetter(r) })
	}
	have := map[string]bool{}
	for _, w := range words(o.tc.Name) {
		if len(w) >= 5 && w != "tests" {
			have[w] = true
		}
	}
	for _, n := range by {
		for _, w := range words(n.tc.Name) {
			if have[w] {
				return true
			}
		}
	}
	return false
}

// checks counts a test's assertions of at least medium strength.
func checks(t *testscan.TestCase) int {
	n := 0
	for _, x := range t.Assertions {
		if x.Strength >= testscan.Medium {
			n++
		}
	}
	return n
}

func (a *Analyzer) reportReplaced(groups []replacement) []gate.Finding {
	var out []gate.Finding
	for _, g := range groups {
		names := make([]string, 0, len(g.by))
		for _, n := range g.by {
			names = append(names, n.tc.ID)
		}
		for _, o := range g.deleted {
			msg := fmt.Sprintf("test %s is gone from %s, which gained %d new %s (%s) with at least as many checks; confirm they cover what it checked", o.tc.ID, o.pr.new.path, len(g.by), ci.Plural(len(g.by), "test", "tests"), quoteList(names, 3))
			out = append(out, gate.NewFinding(gate.RuleTestReplaced, gate.SeverityMedium, o.side.path, o.tc.Line, o.tc.ID, "", "", msg+"."))
		}
	}
	return out
}

// pick returns the candidate that passes ok, preferring one in the same directory
// as the old test, then any.
func pick(cands []*locTest, o *locTest, ok func(*locTest) bool) *locTest {
	var any *locTest
	for _, c := range cands {
		if !ok(c) {
			continue
		}
		if dir(c.side.path) == dir(o.side.path) {
			return c
		}
		if any == nil {
			any = c
		}
	}
	return any
}

// similarTest reports whether a new test looks like the old one reworked: a
// rename with edits, cases folded into a parametrized test, a table row turned
// into a function. It needs shared literal values (the inputs and expected values
// survive such refactors) and at least one assertion on the new side.
func similarTest(o, n *testscan.TestCase) bool {
	if len(o.Assertions) == 0 && len(n.Assertions) == 0 && n.Skip == nil {
		// A test that fails by throwing checks nothing we can see: it is
		// the same test when its body is as long and keeps every literal
		// and most of its calls.
		return len(o.Literals) > 0 && containsAll(n.Literals, o.Literals) &&
			n.BodyTokens*10 >= o.BodyTokens*9 && sharedCalls(o, n)*10 >= len(o.Calls)*8
	}
	if len(n.Assertions) == 0 && n.Skip == nil {
		return false
	}
	if len(o.Literals) == 0 {
		return len(o.Assertions) > 0 && sameAssertionShape(o, n)
	}
	have := map[string]bool{}
	for _, l := range n.Literals {
		have[l] = true
	}
	hit := 0
	for _, l := range o.Literals {
		if have[l] {
			hit++
		}
	}
	return hit*10 >= len(o.Literals)*8 // 80% of the old literals survive
}

func sameAssertionShape(o, n *testscan.TestCase) bool {
	if len(o.Assertions) != len(n.Assertions) {
		return false
	}
	for i := range o.Assertions {
		if o.Assertions[i].Kind != n.Assertions[i].Kind || o.Assertions[i].Subject != n.Assertions[i].Subject {
			return false
		}
	}
	return true
}

func (a *Analyzer) reportDeletions(deleted []*locTest, outside map[string]*pair, use *codeUse) []gate.Finding {
	gone := map[string]bool{}
	for _, o := range deleted {
		gone[o.key()] = true
	}
	// Subtests of a deleted parent are folded into the parent's finding.
	children := map[string]int{}
	var top []*locTest
	for _, o := range deleted {
		if p := parentDeleted(o, gone); p != "" {
			children[p]++
			continue
		}
		top = append(top, o)
	}
	var out []gate.Finding
	for _, o := range top {
		file := o.side.path
		what := "test " + o.tc.ID
		msg := ""
		switch {
		case outside[o.tc.ID] != nil || o.pr.new != nil && o.pr.uncollected(o.pr.new):
			to := outside[o.tc.ID]
			if to == nil {
				to = o.pr
			}
			msg = fmt.Sprintf("%s was moved from %s to %s, out of the test runner's reach: %s", what, file, to.new.path, to.reachWhy())
		case o.pr.new == nil:
			msg = fmt.Sprintf("%s was deleted together with its file %s", what, file)
		case o.pr.new.facts != nil && o.pr.new.facts.Partial && !o.pr.fc.Fragment:
			msg = fmt.Sprintf("%s is gone from %s, which no longer parses", what, o.pr.new.path)
		default:
			msg = fmt.Sprintf("%s was deleted from %s and not renamed or moved", what, o.pr.new.path)
		}
		if n := children[o.key()]; n > 0 {
			msg += fmt.Sprintf(" (with %d %s)", n, ci.Plural(n, "subtest", "subtests"))
		}
		if o.tc.Skip != nil {
			msg += skippedAtBase(o.tc.Skip)
		}
		sev := gate.SeverityCritical
		rule := gate.RuleTestDeleted
		code := "" // the deleted production code the test was about
		unsupported := runtimeGone(o)
		if unsupported == "" {
			unsupported = dependencyGone(o)
		}
		switch {
		case o.tc.Skip != nil && (o.tc.Skip.Kind == testscan.SkipMarked || o.tc.Skip.Kind == testscan.SkipTodo):
			// Removing a test that never ran changes no result.
			sev = gate.SeverityMedium
		case unsupported != "":
			// Nor does removing one that can run on no version the
			// project supports (see runtimefloor.go).
			sev = gate.SeverityMedium
			msg += "; " + unsupported
		case placeholder(o.tc):
			sev, rule = gate.SeverityMedium, gate.RulePlaceholderTestDeleted
			msg += "; it could not fail: its body is only checks that always pass"
		case suiteRunner(o, gone):
			sev, rule = gate.SeverityMedium, gate.RuleSuiteRunnerDeleted
			msg = fmt.Sprintf("test %s, which asserted nothing itself, was deleted from %s; the suite tests of that file were all kept (renamed, moved or converted), so it looks like a removed suite runner", o.tc.ID, file)
		case outside[o.tc.ID] == nil && (o.pr.new == nil || !o.pr.uncollected(o.pr.new)):
			// A test deleted with the production code it was about
			// (a feature or a deprecated API removed) cannot stay: it
			// is the removal to confirm, not a test lost.
			gone := use.gone(o)
			if code = subject(o, gone); code != "" {
				sev, rule = gate.SeverityMedium, gate.RuleTestDeletedWithCode
				msg += fmt.Sprintf("; it tested %s, which the change deleted from production code", code)
			} else if code = checkedCode(o, gone); code != "" {
				sev, rule = gate.SeverityMedium, gate.RuleTestDeletedWithCode
				msg += fmt.Sprintf("; its checks were on what %s returned, which the change deleted from production code", code)
			} else if r := retiredSubject(o.tc.ID, use.retired()); r != nil {
				code = r.name
				sev, rule = gate.SeverityMedium, gate.RuleTestDeletedWithCode
				msg += fmt.Sprintf("; it tested %s, whose deprecation notice the change removed from %s with it", code, r.file)
			} else if d := use.packageGone(o); d != "" {
				code = d
				sev, rule = gate.SeverityMedium, gate.RuleTestDeletedWithCode
				msg += fmt.Sprintf("; the change deleted the whole of %s/, the production code it tested with it", d)
			} else if t := use.text(o); t != nil {
				sev, rule = gate.SeverityMedium, gate.RuleTestDeletedWithCode
				msg += fmt.Sprintf("; it expected %q, which the change removed from %s and left nowhere in production code", t.text, t.file)
			} else if c := use.specialCase(o); c != nil {
				sev, rule = gate.SeverityMedium, gate.RuleTestDeletedWithCode
				msg += fmt.Sprintf("; it passed %q, a value %s compared against, and the change removed that special case from production code", c.text, c.file)
			} else if calls := use.callsGone(o); calls != nil {
				sev, rule = gate.SeverityMedium, gate.RuleTestDeletedWithCode
				msg += fmt.Sprintf("; everything it called (%s) the change deleted from production code", strings.Join(calls, ", "))
			} else if t := use.recastTail(o); t != "" {
				sev, rule = gate.SeverityMedium, gate.RuleTestDeletedWithCode
				msg += t
			}
		}
		f := gate.NewFinding(rule, sev, file, o.tc.Line, o.tc.ID, code, "", msg+".")
		out = append(out, f)
	}
	return out
}

// skippedAtBase says how a deleted test was skipped at base: always (a
// mark, a todo), or only on some runs (a condition, an expected failure, a
// guard), in which case it ran where the gate runs and its deletion counts.
func skippedAtBase(s *testscan.Skip) string {
	switch s.Kind {
	case testscan.SkipMarked, testscan.SkipTodo, testscan.SkipCommented:
		return "; it was already skipped at base"
	case testscan.SkipXFail:
		return "; it was marked as an expected failure at base, which still runs it"
	default:
		how := map[testscan.SkipKind]string{
			testscan.SkipConditional: "a skip condition",
			testscan.SkipCall:        "a skip call in its body",
			testscan.SkipShortGuard:  "a short-mode guard",
			testscan.SkipEarlyReturn: "an early return",
		}[s.Kind]
		if how == "" {
			how = string(s.Kind)
		}
		return fmt.Sprintf("; at base it was skipped only on some runs (%s), so it ran on the others", how)
	}
}

// placeholder reports whether a test could not fail: its body is nothing
// but checks that always pass (`test('x', t => { t.pass(); })`, kept so a
// file has a test where a runtime lacks the feature): no calls, no values,
// no other statement.
func placeholder(t *testscan.TestCase) bool {
	if len(t.Assertions) == 0 || len(t.Calls) > 0 || len(t.Literals) > 0 || t.BodyTokens > 8*len(t.Assertions) {
		return false
	}
	for _, x := range t.Assertions {
		if x.Strength != testscan.Trivial || x.Subject != "" || x.Expected != "" {
			return false
		}
	}
	return true
}

// suiteRunner reports whether a deleted top-level Go test that asserts nothing
// sat in a file with suite methods (ids "Suite.TestX") none of which were
// deleted: the function
// that ran the suite (suite.Run(t, new(S))), removed when the suite was converted.
func suiteRunner(o *locTest, gone map[string]bool) bool {
	if o.side.facts == nil || o.side.facts.Lang != testscan.Go || len(o.tc.Assertions) > 0 ||
		strings.ContainsAny(o.tc.ID, "./") {
		return false // a runner is a top-level test function
	}
	suites := 0
	for _, t := range o.side.facts.Tests {
		// A suite test's id is "Suite.TestX", with subtests after a slash;
		// a dot after the slash is only a subtest's name ("TestX/a.go").
		if top, _, _ := strings.Cut(t.ID, "/"); !strings.Contains(top, ".") {
			continue
		}
		if gone[o.side.path+"\x00"+t.ID] {
			return false
		}
		suites++
	}
	return suites > 0
}

// parentDeleted returns the key of the nearest deleted ancestor of a test, judged
// by id prefix within the same file.
func parentDeleted(o *locTest, gone map[string]bool) string {
	id := o.tc.ID
	for {
		i := strings.LastIndexAny(id, "/>:")
		if i <= 0 {
			return ""
		}
		id = strings.TrimRight(id[:i], " >:/")
		if k := o.side.path + "\x00" + id; gone[k] {
			return k
		}
	}
}

// compareSkips reports a test that runs at base and does not at head. A Go
// test put behind testing.Short() still runs where the project's CI runs
// the tests without -short: that skips nothing that gates (medium).
func (a *Analyzer) compareSkips(o, n *locTest, ci *ci.Base) []gate.Finding {
	ns, os := n.tc.Skip, o.tc.Skip
	if ns == nil {
		return nil
	}
	if os != nil && !(os.Kind == testscan.SkipConditional && ns.Kind != testscan.SkipConditional) {
		return nil // already skipped at base, at least as strongly
	}
	sev := gate.SeverityHigh
	if ns.Kind == testscan.SkipConditional && os == nil && !ns.EnvGuard && !ns.OnResult {
		sev = gate.SeverityMedium // a platform guard is often legitimate
	}
	how := skipDescription(ns)
	if ns.OnResult && ns.Kind == testscan.SkipConditional {
		how = "it is now skipped under a condition on what the code under test returns, so it skips exactly when that result is wrong"
	}
	if sev == gate.SeverityMedium && ns.Kind == testscan.SkipConditional {
		if where := skipsWhereCIRuns(ns.Platform, ci.Platforms()); where != "" {
			// `if runtime.GOOS == "linux" { t.Skip() }` where every job
			// of the project's CI runs on Linux: it never runs there.
			sev = gate.SeverityHigh
			how = "it is now skipped " + where
		}
	}
	if ns.Kind == testscan.SkipShortGuard {
		if where := ci.GoFull(); where != "" {
			sev = gate.SeverityMedium
			how += "; the project's CI runs the tests without -short (" + where + "), so it still runs where the tests gate"
		}
	}
	msg := fmt.Sprintf("test %s no longer runs: %s", n.tc.ID, how)
	if ns.Reason != "" {
		msg += fmt.Sprintf(" (reason: %q)", ns.Reason)
	}
	line := ns.Line
	if line == 0 {
		line = n.tc.Line
	}
	return []gate.Finding{gate.NewFinding(gate.RuleSkipAdded, sev, n.side.path, line, n.tc.ID, "", string(ns.Kind), msg+".")}
}

// armsDiffer reports whether a test's checks sit under other conditions
// though its body reads the same: what expects its failure can be outside
// the body (#[should_panic], @Test(expected = AssertionError.class)).
func armsDiffer(o, n *testscan.TestCase) bool {
	conds := map[string]int{}
	for _, x := range o.Assertions {
		for _, a := range x.Arms {
			conds[a.Cond]++
		}
	}
	for _, y := range n.Assertions {
		for _, a := range y.Arms {
			conds[a.Cond]--
		}
	}
	for _, c := range conds {
		if c != 0 {
			return true
		}
	}
	return false
}

// skipsWhereCIRuns returns, for a skip on an operating system, where it
// skips, when that is every system the base's CI runs on (platforms, see
// ci.Base.Platforms), as the end of a sentence ("on linux, where ...");
// "" when it is not, or either is unknown.
func skipsWhereCIRuns(platform string, platforms map[string]string) string {
	if platform == "" || len(platforms) == 0 {
		return ""
	}
	os, not := strings.CutPrefix(platform, "!")
	var files []string
	for p, f := range platforms {
		if (p == os) == not {
			return "" // some job runs where it does not skip
		}
		files = append(files, f)
	}
	slices.Sort(files)
	files = slices.Compact(files)
	if not {
		return fmt.Sprintf("on every system but %s, and the project's CI runs on %s only (%s): it no longer runs where CI runs", os, strings.Join(slices.Sorted(maps.Keys(platforms)), ", "), strings.Join(files, ", "))
	}
	return fmt.Sprintf("on %s, where every job of the project's CI runs (%s): it no longer runs where CI runs", os, strings.Join(files, ", "))
}

func skipDescription(s *testscan.Skip) string {
	switch s.Kind {
	case testscan.SkipMarked:
		return "it is marked skipped"
	case testscan.SkipTodo:
		return "it was turned into a todo"
	case testscan.SkipXFail:
		return "it is marked as an expected failure"
	case testscan.SkipConditional:
		if s.EnvGuard {
			return "it is now skipped when an environment variable says so, as it does where the gate and CI run"
		}
		return "it is now skipped under a condition"
	case testscan.SkipCall:
		return "it calls skip before checking anything"
	case testscan.SkipShortGuard:
		return "it is guarded by testing.Short(), so short runs skip it"
	case testscan.SkipEarlyReturn:
		return "it returns before its first assertion"
	case testscan.SkipCommented:
		return "it is commented out"
	}
	return "it is skipped (" + string(s.Kind) + ")"
}

// reportOnly reports .only/fit/fdescribe added to a file: every other test in
// that file stops running.
func (a *Analyzer) reportOnly(pairs []*pair) []gate.Finding {
	var out []gate.Finding
	for _, pr := range pairs {
		if pr.new == nil || pr.new.facts == nil {
			continue
		}
		oldOnly := map[string]bool{}
		if pr.old != nil && pr.old.facts != nil {
			for _, t := range pr.old.facts.Tests {
				if t.Only {
					oldOnly[t.ID] = true
				}
			}
		}
		var added []testscan.TestCase
		silenced := 0
		for _, t := range pr.new.facts.Tests {
			switch {
			case t.Only && !oldOnly[t.ID]:
				added = append(added, t)
			case !t.Only && t.Skip == nil:
				silenced++
			}
		}
		if len(added) == 0 || silenced == 0 {
			continue
		}
		t := added[0]
		msg := fmt.Sprintf("focus (.only/fit/fdescribe) added to %s: the other %d %s in %s stop running", t.ID, silenced, ci.Plural(silenced, "test", "tests"), pr.new.path)
		out = append(out, gate.NewFinding(gate.RuleOnlyAdded, gate.SeverityHigh, pr.new.path, t.Line, t.ID, "", "", msg+"."))
	}
	return out
}

// dataChanged reports a test whose checks are unchanged but whose literal values
// (a table's inputs and expected values) were rewritten: what a changed
// expectation looks like when the assertion reads it from a table row. Medium:
// a behaviour change the task asked for does the same.
func dataChanged(o, n *locTest) []gate.Finding {
	have := map[string]int{}
	for _, l := range n.tc.Literals {
		have[l]++
	}
	var gone []string
	for _, l := range o.tc.Literals {
		if have[l] > 0 {
			have[l]--
			continue
		}
		gone = append(gone, l)
	}
	added := 0
	for _, c := range have {
		added += c
	}
	if len(gone) == 0 || added == 0 {
		return nil // only new values (a new row) or only removed ones (judged elsewhere)
	}
	msg := fmt.Sprintf("values in test %s were rewritten (%s no longer in it) while its checks stayed the same; a behaviour change the task asked for also does this, so check that the code, not the test, was meant to change", n.tc.ID, quoteList(gone, 3))
	return []gate.Finding{gate.NewFinding(gate.RuleTestDataRewritten, gate.SeverityMedium, n.side.path, n.tc.Line, n.tc.ID, "", strings.Join(gone, ","), msg+".")}
}

// compareRetries reports a test that the runner now reruns more often when
// it fails: a check that fails now and then passes on a retry, which is a
// skip of its failures.
func compareRetries(o, n *locTest) []gate.Finding {
	if n.tc.Retries <= o.tc.Retries {
		return nil
	}
	was := "did not retry"
	if o.tc.Retries > 0 {
		was = fmt.Sprintf("was %d", o.tc.Retries)
	}
	msg := fmt.Sprintf("test %s now reruns up to %d %s when it fails (%s): a failure that comes and goes passes on a retry", n.tc.ID, n.tc.Retries, ci.Plural(n.tc.Retries, "time", "times"), was)
	return []gate.Finding{gate.NewFinding(gate.RuleRetriesRaised, gate.SeverityHigh, n.side.path, n.tc.Line, n.tc.ID, "", fmt.Sprintf("retries %d", n.tc.Retries), msg+".")}
}
