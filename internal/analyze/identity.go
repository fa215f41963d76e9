package analyze

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// A test keeps its identity across a change when what it does survives, not
// only its name: the same body under another name or in another file, the
// same name under a normalized spelling (TestA_B for TestAB, digit for
// testDigit), its cases re-parametrized or turned into subtests, its checks
// split into new tests or merged into a neighbour. The matching below decides
// that from the body (fingerprint), the checks (kind, subject, expected
// value, strength) and the calls; a reused name is not proof.

// match is where an old test went, and how it was recognized.
type match struct {
	n   *locTest
	how string // "same", "moved", "renamed", "reworked", "recast", "merged"
}

// matchTests pairs the old tests with new ones, one pass per kind of
// evidence, strongest first, so that a weak match of one test cannot take
// the exact match of another: the same id in the same file, the same id in
// another file, the same body under another name, the same name spelled
// another way, then a reworked body.
func (a *Analyzer) matchTests(olds, news []*locTest, byPathID map[string]*locTest, byID, byFP map[string][]*locTest,
	fresh func(*locTest) bool, matched map[*locTest]bool) map[*locTest]match {
	m := make(map[*locTest]match, len(olds))
	free := func(c *locTest) bool { return fresh(c) && !matched[c] }
	take := func(o, n *locTest, how string) {
		m[o] = match{n, how}
		matched[n] = true
	}
	hasFP := func(o *locTest) bool { return o.tc.Fingerprint != "" && o.tc.BodyTokens > 0 }
	// The same id in the same file, unless the old body went verbatim to a
	// test the change created while the name was reused for another body.
	for _, o := range olds {
		if o.pr.new == nil {
			continue
		}
		c := byPathID[o.pr.new.path+"\x00"+o.tc.ID]
		if c == nil || matched[c] {
			continue
		}
		if hasFP(o) && c.tc.Fingerprint != o.tc.Fingerprint && pick(byFP[o.tc.Fingerprint], o, free) != nil {
			continue
		}
		take(o, c, "same")
	}
	passes := []struct {
		how  string
		find func(o *locTest) *locTest
	}{
		{"moved", func(o *locTest) *locTest { return pick(byID[o.tc.ID], o, free) }},
		{"renamed", func(o *locTest) *locTest {
			if !hasFP(o) {
				return nil
			}
			return pick(byFP[o.tc.Fingerprint], o, free)
		}},
		{"renamed", func(o *locTest) *locTest { return sameSpelling(o, news, free) }},
		{"moved", func(o *locTest) *locTest { return spelledInHome(o, news, free) }},
		{"reworked", func(o *locTest) *locTest {
			// A test is reworked into a test of its own language only:
			// a JavaScript test does not become a Go one, however alike
			// their literals. Where the extractor reads which imported
			// functions a test calls (Uses), it still calls one of
			// them: the same values checked on other code are another
			// test (parse("x") == 42 is not width("x") == 42).
			return pick(news, o, func(c *locTest) bool {
				return free(c) && c.side.ext == o.side.ext && (c.tc.Name == o.tc.Name || similarTest(o.tc, c.tc)) && sharesUse(o.tc, c.tc)
			})
		}},
		{"reworked", func(o *locTest) *locTest {
			// A test folded into a table's row with its expected
			// values rewritten: its inputs and its checks kept.
			return pick(news, o, func(c *locTest) bool {
				return free(c) && c.side.ext == o.side.ext && rowReworked(o, c)
			})
		}},
		{"recast", func(o *locTest) *locTest { return sameUse(o, olds, news, free) }},
	}
	for _, p := range passes {
		for _, o := range olds {
			if m[o].n != nil {
				continue
			}
			if n := p.find(o); n != nil {
				take(o, n, p.how)
			}
		}
	}
	// Near-duplicates merged into one test: an old test whose every literal
	// and whose strongest check live on in a test the change created, which
	// another old test already became.
	for _, o := range olds {
		if m[o].n != nil || len(o.tc.Literals) == 0 {
			continue
		}
		n := pick(news, o, func(c *locTest) bool {
			return fresh(c) && matched[c] && c.side.ext == o.side.ext && containsAll(c.tc.Literals, o.tc.Literals) &&
				maxStrength(c.tc) >= maxStrength(o.tc) && checks(c.tc) > 0
		})
		if n != nil {
			m[o] = match{n, "merged"}
		}
	}
	return m
}

// sameSpelling returns the one unmatched new test whose name is the old
// one's spelled another way (case, underscores, a "test" prefix:
// TestNoArgsWithArgs and TestNoArgs_WithArgs, testDigit and digit).
func sameSpelling(o *locTest, news []*locTest, ok func(*locTest) bool) *locTest {
	want := spelling(o.tc.Name)
	if want == "" {
		return nil
	}
	var found *locTest
	for _, c := range news {
		if !ok(c) || c.tc.Name == o.tc.Name || spelling(c.tc.Name) != want || c.side.ext != o.side.ext ||
			!keepsWork(o, c) {
			continue
		}
		if found != nil {
			return nil // ambiguous
		}
		found = c
	}
	return found
}

// spelledInHome returns the one unmatched new test whose name is part of
// the old one's and whose new home (its file's name, its module or class)
// spells the rest: test_untagged_newtype_struct moved to
// test_enum_untagged.rs as newtype_struct, test_variant_identifier become
// variant_identifier::variant1. Like sameSpelling, it must keep the old
// test's work (keepsWork).
func spelledInHome(o *locTest, news []*locTest, ok func(*locTest) bool) *locTest {
	want := nameWords(o.tc.ID)
	if len(want) < 2 {
		return nil
	}
	var found *locTest
	for _, c := range news {
		if !ok(c) || c.side.ext != o.side.ext {
			continue
		}
		own := nameWords(c.tc.Name)
		if len(own) == 0 || len(own) == len(want) || !subset(own, want) {
			continue
		}
		home := nameWords(c.tc.ID)
		for w := range nameWords(strings.TrimSuffix(path.Base(c.side.path), path.Ext(c.side.path))) {
			home[w] = true
		}
		if !subset(want, home) || !keepsWork(o, c) {
			continue
		}
		if found != nil {
			return nil // ambiguous
		}
		found = c
	}
	return found
}

// nameWords are the lowercased words of a test's name or id (split at
// case changes, underscores, digits and separators), "test" and "tests"
// left out.
func nameWords(s string) map[string]bool {
	out := map[string]bool{}
	var w []rune
	flush := func() {
		if len(w) > 0 {
			if k := strings.ToLower(string(w)); k != "test" && k != "tests" {
				out[k] = true
			}
			w = w[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r):
			flush()
		case unicode.IsUpper(r) && i > 0 && unicode.IsLower(rs[i-1]):
			flush()
			w = append(w, r)
		default:
			w = append(w, r)
		}
	}
	flush()
	return out
}

// subset reports whether every key of a is in b.
func subset(a, b map[string]bool) bool {
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// keepsWork reports whether a new test does at least what the old one did:
// as many checks of at least medium strength, as strong, and every function
// the old one called (its helpers hold its other checks), or, for a helper
// the change removed, a helper the change added.
func keepsWork(o, n *locTest) bool {
	if checks(n.tc) < checks(o.tc) || maxStrength(n.tc) < maxStrength(o.tc) {
		return false
	}
	have := callNames(n.tc)
	oldHelpers, newHelpers := helperSet(o.side), helperSet(n.side)
	var added []string // helpers it calls that the old side did not have
	for _, c := range n.tc.Calls {
		if newHelpers[c.Name] && !oldHelpers[c.Name] {
			added = append(added, c.Name)
		}
	}
	for _, c := range o.tc.Calls {
		if have[c.Name] {
			continue
		}
		// A helper the change renamed: gone at head, and a helper the
		// change added checks at least as much.
		if !oldHelpers[c.Name] || newHelpers[c.Name] || len(added) == 0 ||
			helperChecks(n.side, added[0]) < helperChecks(o.side, c.Name) {
			return false
		}
		added = added[1:]
	}
	return true
}

// helperChecks counts the checks of at least medium strength of the helper
// called as name on a side.
func helperChecks(s *side, name string) int {
	name = strings.TrimPrefix(name, ".")
	k := 0
	for _, x := range s.facts.HelperAssertions {
		if x.Strength >= testscan.Medium && (x.Helper == name || strings.HasSuffix(x.Helper, "."+name)) {
			k++
		}
	}
	return k
}

// helperSet is the set of helper names of a side, plain and unqualified
// ("Recv.name" also as "name" and ".name").
func helperSet(s *side) map[string]bool {
	set := map[string]bool{}
	if s == nil || s.facts == nil {
		return set
	}
	for _, h := range s.facts.Helpers {
		set[h] = true
		if i := strings.LastIndexByte(h, '.'); i >= 0 {
			set[h[i+1:]] = true
			set[h[i:]] = true
		}
	}
	return set
}

func spelling(name string) string {
	s := lowerAlnum(name)
	s = strings.TrimPrefix(s, "test")
	return strings.TrimSuffix(s, "test")
}

// lowerAlnum keeps the lowercased letters and digits of s.
func lowerAlnum(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

func containsAll(have, want []string) bool {
	set := make(map[string]bool, len(have))
	for _, l := range have {
		set[l] = true
	}
	for _, l := range want {
		if !set[l] {
			return false
		}
	}
	return true
}

// carriedTest is an old test no new test took the place of, whose checks
// the change kept in tests it created or added checks to: a split, a merge into a neighbour, a
// move under another name, cases turned into subtests or re-parametrized.
type carriedTest struct {
	o   *locTest
	by  []*locTest
	how string
}

// splitCarried separates the deleted tests whose checks the change kept from
// those it lost.
func splitCarried(deleted, news []*locTest, fresh func(*locTest) bool, gained map[*locTest][]testscan.Assertion) ([]*locTest, []carriedTest) {
	var made []*locTest // the tests the change created
	for _, n := range news {
		if fresh(n) {
			made = append(made, n)
		}
	}
	// Where a check can have gone: any check of a test the change
	// created, and the checks a kept test gained (a merge into it).
	checksOf := func(c *locTest) []testscan.Assertion {
		if !runs(c.tc) {
			return nil // a check that does not run carries nothing
		}
		if fresh(c) {
			return c.tc.Assertions
		}
		return gained[c]
	}
	var rest []*locTest
	var out []carriedTest
	for _, o := range deleted {
		// A check is carried into a test of its own language only.
		made, news := sameLang(made, o), sameLang(news, o)
		if by := family(o, deleted, news); by != nil {
			out = append(out, carriedTest{o, by, "family"})
			continue
		}
		if by := mergedRow(o, made); by != nil {
			out = append(out, carriedTest{o, by, "family"})
			continue
		}
		if by, reshaped := carriers(o, made, news, checksOf); by != nil {
			how := "checks"
			if reshaped {
				how = "reshaped"
			}
			out = append(out, carriedTest{o, by, how})
			continue
		}
		rest = append(rest, o)
	}
	return rest, out
}

// sameLang returns the tests of ts read by o's extractor: ts itself when
// all are.
func sameLang(ts []*locTest, o *locTest) []*locTest {
	for i, t := range ts {
		if t.side.ext != o.side.ext {
			out := slices.Clone(ts[:i])
			for _, t := range ts[i+1:] {
				if t.side.ext == o.side.ext {
					out = append(out, t)
				}
			}
			return out
		}
	}
	return ts
}

// baseID is a test id without its parameters: "test_x[a-1]" -> "test_x",
// "Class.m[2]" -> "Class.m".
func baseID(id string) (string, bool) {
	if strings.HasSuffix(id, "]") {
		if i := strings.LastIndexByte(id, '['); i > 0 {
			return id[:i], true
		}
	}
	return id, false
}

// family returns the new tests that are the old test's cases under new ids:
// a test turned into subtests (X -> X/a, X/b), given parameters (x ->
// x[a], x[b]), or whose parameter table was rewritten (x[a-1] -> x[b-2]).
// They must check at least what it checked, and a rewritten table must
// keep at least as many cases, all of them known.
func family(o *locTest, deleted, news []*locTest) []*locTest {
	base, param := baseID(o.tc.ID)
	member := func(id string) bool {
		if param {
			b, p := baseID(id)
			return p && b == base
		}
		return strings.HasPrefix(id, base+"/") || strings.HasPrefix(id, base+"[")
	}
	var by []*locTest
	have, dynamic := 0, false
	var strongest testscan.Strength
	for _, n := range news {
		if n.side.ext != o.side.ext || !member(n.tc.ID) || !runs(n.tc) {
			continue
		}
		by = append(by, n)
		have += checks(n.tc)
		dynamic = dynamic || n.tc.Dynamic
		if s := maxStrength(n.tc); s > strongest {
			strongest = s
		}
	}
	if len(by) == 0 || strongest < maxStrength(o.tc) || !sharesCall(o.tc, by) {
		return nil
	}
	// The old side's members: its cases, or the subtests it already had,
	// whose own checks are not this test's to count.
	olds, had := 0, 0
	for i := range o.side.facts.Tests {
		t := &o.side.facts.Tests[i]
		if t.ID != o.tc.ID && member(t.ID) {
			olds++
			had += checks(t)
		}
	}
	if param {
		if !rowKept(o.tc, by, olds+1) && (dynamic || len(by) < olds+1 || !inputsKept(o.tc.ID, by)) {
			return nil
		}
		for _, n := range by {
			if checks(n.tc) < checks(o.tc) {
				return nil
			}
		}
		return by
	}
	need := checks(o.tc)
	if need == 0 {
		need = 1
	}
	if have-had < need {
		return nil
	}
	return by
}

// sharesUse reports whether two tests call a function of an imported
// module in common, or either calls none the extractor knows of.
func sharesUse(o, n *testscan.TestCase) bool {
	if len(o.Uses) == 0 || len(n.Uses) == 0 {
		return true
	}
	for _, u := range o.Uses {
		if slices.ContainsFunc(n.Uses, func(v string) bool { return sameUseName(u, v) }) {
			return true
		}
	}
	return false
}

// sharesCall reports whether the new tests call at least one function the
// old test called (or the old test called none): they exercise the same
// code, not only check in the same way.
func sharesCall(o *testscan.TestCase, by []*locTest) bool {
	if len(o.Calls) == 0 {
		return true
	}
	want := callNames(o)
	for _, n := range by {
		if callsAny(n.tc, want) {
			return true
		}
	}
	return false
}

// callNames are the names of the functions a test calls.
func callNames(t *testscan.TestCase) map[string]bool {
	want := make(map[string]bool, len(t.Calls))
	for _, c := range t.Calls {
		want[c.Name] = true
	}
	return want
}

// callsAny reports whether a test calls one of the functions named.
func callsAny(t *testscan.TestCase, names map[string]bool) bool {
	for _, c := range t.Calls {
		if names[c.Name] {
			return true
		}
	}
	return false
}

// callsRespelled reports whether a test calls, under a new spelling, one
// of the functions named: a production name the change deleted and declared
// again spelled for another visibility (respelled). byKey maps the
// visibilityKey of each name to the name (respellable).
func callsRespelled(t *testscan.TestCase, names map[string]bool, byKey map[string]string, decls *codeDecls) bool {
	if decls == nil || len(byKey) == 0 {
		return false
	}
	for _, c := range t.Calls {
		if names[c.Name] {
			continue
		}
		// The strings first: the change's declarations are read only for
		// a call spelled like one of names.
		if n, ok := byKey[visibilityKey(c.Name)]; ok && n != c.Name && decls.respelled(n, c.Name) {
			return true
		}
	}
	return false
}

// respellable maps the visibilityKey of each name to the name.
func respellable(names map[string]bool) map[string]string {
	out := make(map[string]string, len(names))
	for n := range names {
		out[visibilityKey(n)] = n
	}
	return out
}

// visibilityKey is a name without what spells its visibility: Go's capital
// (WithoutVariables is withoutVariables exported), Python's leading
// underscores (_parse is parse kept private).
func visibilityKey(name string) string {
	name = strings.TrimLeft(name, "_")
	if name == "" {
		return ""
	}
	if c := name[0]; c < 'A' || c > 'Z' {
		if c < utf8.RuneSelf {
			return name // already lower (or not a letter): no copy
		}
	} else {
		return string(c+'a'-'A') + name[1:]
	}
	r, size := utf8.DecodeRuneInString(name)
	return string(unicode.ToLower(r)) + name[size:]
}

// sharedCalls counts the functions of o's calls that n calls too.
func sharedCalls(o, n *testscan.TestCase) int {
	have := callNames(n)
	k := 0
	for _, c := range o.Calls {
		if have[c.Name] {
			k++
		}
	}
	return k
}

// carriers returns the tests the change created or added checks to that
// hold every check of the old test, at least as strong; for a test that checks nothing itself,
// a created test that checks and calls every function it called.
// reshaped is set when some check is carried only by one of the same
// structure with other values (sameStructure): a test moved into a new
// file whose fixture was renamed, as an in-place rewrite of its expected
// values.
func carriers(o *locTest, made, news []*locTest, checksOf func(*locTest) []testscan.Assertion) (by []*locTest, reshaped bool) {
	if _, param := baseID(o.tc.ID); param {
		// A case of a parametrized test: its checks are its table's, and
		// only a table whose cases are all known can be seen to keep it.
		return nil, false
	}
	add := func(n *locTest) {
		for _, b := range by {
			if b == n {
				return
			}
		}
		by = append(by, n)
	}
	n := 0
	var reclassed []testscan.Assertion // failure checks carried nowhere as they were
	for _, x := range o.tc.Assertions {
		if x.Strength < testscan.Weak {
			continue
		}
		n++
		var found *locTest
		for _, c := range news {
			for _, y := range checksOf(c) {
				if carries(x, y) {
					found = c
					break
				}
			}
			if found != nil {
				break
			}
		}
		if found == nil {
			if outcomeKind(x.Kind) && x.Expected != "" {
				reclassed = append(reclassed, x)
				continue
			}
			if found = reshapedIn(o, x, made); found == nil {
				return nil, false
			}
			reshaped = true
		}
		add(found)
	}
	// A check that the code fails with one exception class, where a test
	// that carries the old test's other checks (its message, pinned by a
	// literal) now expects another, specific class the same way: the
	// refactor changed what is raised (KeyError -> ValueError, flask
	// 127df57a06), as an expected value rewritten in a test that stayed.
	// Without a carried message, or for a catch-all class, the check is lost.
	for _, x := range reclassed {
		if len(by) == 0 || !reclassedIn(x, o, by, checksOf) {
			return nil, false
		}
	}
	if n > 0 {
		if !sharesCall(o.tc, by) {
			return nil, false
		}
		return by, reshaped
	}
	var calls []string
	for _, c := range o.tc.Calls {
		if !strings.HasPrefix(c.Name, ".") {
			calls = append(calls, c.Name)
		}
	}
	if len(calls) == 0 {
		return nil, false
	}
	for _, c := range made {
		if checks(c.tc) == 0 || c.side.ext != o.side.ext || !runs(c.tc) {
			continue
		}
		have := map[string]bool{}
		for _, x := range c.tc.Calls {
			have[x.Name] = true
		}
		all := true
		for _, name := range calls {
			all = all && have[name]
		}
		if all {
			return []*locTest{c}, false
		}
	}
	return nil, false
}

// reshapedIn returns the test the change created that makes check x of
// o with the same structure and other values (valueStructure), running
// where the gate runs; of several, the one whose name spells the most words
// of o's (newtype_unit spells new_type_with_unit's new, type and unit).
func reshapedIn(o *locTest, x testscan.Assertion, made []*locTest) *locTest {
	if x.Expected == "" {
		return nil
	}
	want, names := valueStructure(x.Expected)
	if names < minStructureNames {
		return nil
	}
	var best *locTest
	bestWords := -1
	var words map[string]bool
	for _, c := range made {
		if !runs(c.tc) || !slices.ContainsFunc(c.tc.Assertions, func(y testscan.Assertion) bool {
			return y.Kind == x.Kind && y.Negated == x.Negated && y.Strength >= x.Strength && y.Expected != "" &&
				!offWhereGateRuns(x, y) && structureIs(y.Expected, want)
		}) {
			continue
		}
		if words == nil {
			words = nameWords(o.tc.ID)
		}
		n, name := 0, lowerAlnum(c.tc.ID)
		for w := range words {
			if strings.Contains(name, w) {
				n++
			}
		}
		if n > bestWords {
			best, bestWords = c, n
		}
	}
	return best
}

func structureIs(expr, want string) bool {
	got, _ := valueStructure(expr)
	return got == want
}

// minStructureNames is how many names of types, variants, fields or
// functions an expected value must spell for its structure to stand for
// the check: `Token::Map{len:Some(1)}, Token::Str(..)` does, a bare
// literal or `Some(x)` does not.
const minStructureNames = 3

// valueStructure is an expected value with its literals and variables
// blanked and its names of types, variants, fields and functions kept (a
// name after `.` or `::`, or before `(`, `{`, `!` or `:`), and how many
// such names it spells. Two checks of the same structure with other values
// (`Token::Str("t")`, `Token::Str("tag")`) have the same one.
func valueStructure(expr string) (string, int) {
	code := []byte(expr)
	literalSpans(expr, func(start, end int) {
		for k := start; k <= end && k < len(code); k++ {
			code[k] = '#'
		}
	})
	var b strings.Builder
	names := 0
	for i := 0; i < len(code); {
		c := code[i]
		switch {
		case c == '_' || c == '$' || unicode.IsLetter(rune(c)):
			j := i
			for j < len(code) && (code[j] == '_' || code[j] == '$' || code[j] >= 0x80 || unicode.IsLetter(rune(code[j])) || unicode.IsDigit(rune(code[j]))) {
				j++
			}
			after := byte(0)
			if j < len(code) {
				after = code[j]
			}
			if i > 0 && code[i-1] == '.' || i > 1 && code[i-1] == ':' && code[i-2] == ':' || after == '(' || after == '{' || after == '!' || after == ':' {
				b.Write(code[i:j])
				names++
			} else {
				b.WriteByte('_')
			}
			i = j
		case c >= '0' && c <= '9':
			for i < len(code) && (code[i] == '.' || code[i] == '_' || unicode.IsLetter(rune(code[i])) || unicode.IsDigit(rune(code[i]))) {
				i++
			}
			b.WriteByte('#')
		case c == '#':
			for i < len(code) && code[i] == '#' {
				i++
			}
			b.WriteByte('#')
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), names
}

// reclassedIn reports whether a test of by, which carries the old test's
// other checks, makes failure check x with another specific class right
// before the check that carries the old test's message: the same kind, as
// strong, not inverted. Another failure check of that test (of another
// call) stands for nothing.
func reclassedIn(x testscan.Assertion, o *locTest, by []*locTest, checksOf func(*locTest) []testscan.Assertion) bool {
	for _, c := range by {
		ys := checksOf(c)
		for _, m := range ys {
			if outcomeKind(m.Kind) || !carriesMessage(o, m) {
				continue
			}
			var prev *testscan.Assertion
			for i, y := range ys {
				if outcomeKind(y.Kind) && y.Line < m.Line && (prev == nil || y.Line > prev.Line) {
					prev = &ys[i]
				}
			}
			if y := prev; y != nil && y.Kind == x.Kind && y.Negated == x.Negated && y.Strength >= x.Strength && y.Expected != "" && !catchAll(y.Expected) {
				return true
			}
		}
	}
	return false
}

// carriesMessage reports whether m carries a check of o that pins text
// (a message): one with a literal it expects.
func carriesMessage(o *locTest, m testscan.Assertion) bool {
	for _, z := range o.tc.Assertions {
		if !outcomeKind(z.Kind) && len(expectedLiterals(z)) > 0 && carries(z, m) {
			return true
		}
	}
	return false
}

// catchAll reports an exception class that any failure is: Exception,
// BaseException, Error, Throwable, RuntimeException.
func catchAll(class string) bool {
	class = strings.Fields(class + " x")[0] // pytest.raises(E, match=...) is read as `E match=...`
	class = strings.TrimSuffix(strings.TrimSuffix(class, ","), ".class")
	class = class[strings.LastIndexByte(class, '.')+1:]
	switch class {
	case "Exception", "BaseException", "Error", "Throwable", "RuntimeException", "object":
		return true
	}
	return false
}

// carries reports whether check y, in another test, makes check x: at least
// as strong, not inverted, on the same subject, or of the same kind against
// the same specific expected value, or holding every specific string x
// checks for.
func carries(x, y testscan.Assertion) bool {
	if y.Strength < x.Strength || x.Negated != y.Negated {
		return false
	}
	// (Whether y runs where x ran is asked last, of a check that would
	// carry x: offWhereGateRuns reads its arms.)
	// The same subject checked against the same value: a check of the same
	// subject against another value is another check (`result == 5` is not
	// `result == 1`; got e5e645a7 dropped t.is(headers["content-length"],
	// undefined) from a test while a new one checks that header's "157").
	if x.Subject != "" && x.Subject == y.Subject && x.Expected == y.Expected {
		return !offWhereGateRuns(x, y)
	}
	// The same check on a renamed variable: vi.isMockFunction(ax.get)
	// and vi.isMockFunction(actual.get).
	if x.Kind == y.Kind && x.Expected == y.Expected && x.Subject != "" {
		if sx := shape(x.Subject); strings.Contains(sx, "(") && strings.Contains(sx, ".") && sx == shape(y.Subject) {
			return !offWhereGateRuns(x, y)
		}
	}
	return carriesValue(x, y)
}

// boolLiteral reports a boolean literal of any of the languages.
func boolLiteral(e string) bool {
	switch e {
	case "true", "false", "True", "False":
		return true
	}
	return false
}

// offWhereGateRuns reports a check y that may not run where the gate
// runs while x ran there: it sits in a branch whose condition is a
// constant that never holds (`if false {`, `if False:`), or one that reads
// the environment (`if os.Getenv("X") != ""`) and that x did not sit in.
// It carries nothing x stood for: in place, the same move is a high
// check-guarded.
func offWhereGateRuns(x, y testscan.Assertion) bool {
	for _, a := range y.Arms {
		if a.Index == 0 && testscan.NeverHolds(a.Cond) || testscan.FailureLost(a.Cond) &&
			!(strings.HasPrefix(a.Cond, testscan.Inverted) && slices.ContainsFunc(x.Arms, func(b testscan.Arm) bool { return testscan.ExpectsFailure(b.Cond) })) {
			return true
		}
		if readsEnvironment(a.Cond) && !slices.ContainsFunc(x.Arms, func(b testscan.Arm) bool { return b.Cond == a.Cond }) {
			return true
		}
	}
	return false
}

// shape is an expression with its variables blanked: each identifier
// that does not follow a dot becomes "_", so that a.b(c) and x.b(y) have
// the same shape and a.b(c) and a.d(c) do not.
func shape(expr string) string {
	var b strings.Builder
	prev := byte(0)
	for i := 0; i < len(expr); {
		c := expr[i]
		if c == '_' || c == '$' || unicode.IsLetter(rune(c)) {
			j := i
			for j < len(expr) && (expr[j] == '_' || expr[j] == '$' || unicode.IsLetter(rune(expr[j])) || unicode.IsDigit(rune(expr[j]))) {
				j++
			}
			if prev == '.' {
				b.WriteString(expr[i:j])
			} else {
				b.WriteByte('_')
			}
			prev = 'a'
			i = j
			continue
		}
		b.WriteByte(c)
		prev = c
		i++
	}
	return b.String()
}

// carriesValue is carries without the subject alone: y checks x's expected
// value (or every specific string x checks for), not only the same
// expression. A check moved out of a test that stays needs this: a generic
// subject (result.output, the response of GET /) is checked by many tests.
func carriesValue(x, y testscan.Assertion) bool {
	return carriesValueOf(x, expectedLiterals(x), y)
}

// expectedLiterals are the strings a check expects; for a check without
// an expected operand or against a boolean (endswith, startsWith, a truthy
// call), those of its subject.
func expectedLiterals(x testscan.Assertion) []string {
	if x.Expected == "" || boolLiteral(x.Expected) {
		// A truthy check (expect(s.startsWith("x")).toBe(true),
		// assertTrue(s.startsWith("x"))): the values are its subject's.
		return rawLiterals(x.Subject)
	}
	lits := rawLiterals(x.Expected)
	if len(lits) == 0 && containmentKind(x.Kind) {
		// Python's `"needle" in haystack`: the text looked for is the
		// subject.
		return rawLiterals(x.Subject)
	}
	return lits
}

// carriesValueOf is carriesValue with x's expectedLiterals read once by a
// caller that asks it of many checks.
func carriesValueOf(x testscan.Assertion, lits []string, y testscan.Assertion) bool {
	if y.Strength < x.Strength || x.Negated != y.Negated {
		return false
	}
	// sameThing, which splits both subjects into words, is asked last.
	if x.Kind == y.Kind && x.Expected == y.Expected &&
		(specific(x.Expected) || x.Subject == y.Subject && strings.Contains(x.Subject, "(")) && sameThing(x, y) {
		// The same specific value of the same thing, or the same call
		// checked the same way; a local read (headers["content-length"])
		// compared to undefined in another test is another request's.
		return !offWhereGateRuns(x, y)
	}
	if len(lits) == 0 {
		return false
	}
	if boolLiteral(x.Expected) && (y.Expected != x.Expected || shape(x.Subject) != shape(y.Subject)) {
		// A check of a call against true or false holds its values in
		// the call: it is carried by the same call on another variable
		// checked the same way (s.startsWith("x") and
		// text.startsWith("x"), toBe(true)), not by another call that
		// takes the same literal, nor by toBe(false).
		return false
	}
	in := y.Subject + "\x00" + y.Expected
	for _, l := range lits {
		if !strings.Contains(in, l) {
			return false
		}
	}
	return !offWhereGateRuns(x, y)
}

// specific reports whether source text names a particular value: it holds a
// string or number literal and is not a bare true, nil, 0 or "" (a variable
// such as expected or a table field is checked by many tests alike).
func specific(e string) bool {
	if len(e) < 3 {
		return false
	}
	if len(e) > 2 && e[0] == '/' && strings.LastIndexByte(e, '/') > 1 {
		return true // a regular expression literal
	}
	return strings.ContainsAny(e, "\"'`0123456789")
}

// inputsKept reports whether the values of a parametrized case
// (test_add[2-3-5]: 2, 3, 5) are still checked: one of the new cases has
// them all in its id, or the new cases' literals (the table) hold them. A
// table rewritten to other values (test_add[0-0-0]) keeps the ids' shape,
// not the cases.
func inputsKept(id string, by []*locTest) bool {
	_, params, _ := strings.Cut(strings.TrimSuffix(id, "]"), "[")
	vals := strings.FieldsFunc(params, func(r rune) bool { return r == '-' || r == ',' || r == ' ' })
	if len(vals) == 0 {
		return true
	}
	lits := map[string]bool{}
	for _, n := range by {
		if _, p, _ := strings.Cut(strings.TrimSuffix(n.tc.ID, "]"), "["); p == params {
			return true
		}
		for _, l := range n.tc.Literals {
			lits[strings.Trim(l, `"'`)] = true
		}
	}
	for _, v := range vals {
		if !lits[v] {
			return false
		}
	}
	return true
}

// rowKept reports whether the new cases still run the old case's row of
// parameter values: one of their rows has every argument of it with the same
// value (more arguments are new inputs), and their tables hold at least
// want rows. It compares a re-parametrized table by its values, not its ids
// (args0-True -> args4-True-True), also when the new ids are unknown (a
// value pytest names at run time makes the case Dynamic, its rows known).
func rowKept(o *testscan.TestCase, by []*locTest, want int) bool {
	if len(o.Params) != 1 || len(o.Params[0]) == 0 {
		return false
	}
	old := o.Params[0]
	found := false
	rows := 0
	for _, n := range by {
		if !collected(n) {
			continue
		}
		rows += len(n.tc.Params)
		for _, r := range n.tc.Params {
			if !found && sameRow(old, r) {
				found = true
			}
		}
	}
	return found && rows >= want
}

// mergedRow returns the test the change created under another name whose
// table runs the old parametrized case's row (two tables merged into one:
// test_stream_helper_deprecated[get_text_stream-click] a row of
// test_attr_deprecated), checking it the same way: each of the old case's
// checks has one of the same kind against the same expected value, at
// least as strong, and the new test calls what the old one called.
func mergedRow(o *locTest, made []*locTest) []*locTest {
	base, param := baseID(o.tc.ID)
	if !param || len(o.tc.Params) != 1 || len(o.tc.Params[0]) == 0 || checks(o.tc) == 0 {
		return nil
	}
	for _, n := range made {
		b, p := baseID(n.tc.ID)
		if !p || b == base || n.side.ext != o.side.ext || !runs(n.tc) || !collected(n) ||
			checks(n.tc) < checks(o.tc) || !sharesCall(o.tc, []*locTest{n}) {
			continue
		}
		kept := false
		for _, r := range n.tc.Params {
			kept = kept || sameRow(o.tc.Params[0], r)
		}
		if kept && sameChecks(o.tc, n.tc) {
			return []*locTest{n}
		}
	}
	return nil
}

// collected reports whether the runner collects the file of a test (a
// table moved into tests/checks.py, which pytest never collects, runs no
// row). Where its tests may still be inherited from, they are not rows of a
// parametrized function.
func collected(n *locTest) bool {
	return n.side == nil || n.side.outOfReach == ""
}

// sameChecks reports whether each check of o has one in n of the same
// kind, sense and expected value, at least as strong.
func sameChecks(o, n *testscan.TestCase) bool {
	for _, x := range o.Assertions {
		if x.Strength < testscan.Weak {
			continue
		}
		found := false
		for _, y := range n.Assertions {
			if y.Kind == x.Kind && y.Expected == x.Expected && y.Negated == x.Negated && y.Strength >= x.Strength {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// sameRow reports whether row r gives every argument of old its value.
func sameRow(old, r map[string]string) bool {
	for k, v := range old {
		if w, ok := r[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// sameThing reports whether two checks' subjects are about the same thing:
// the same text, or a name in common, selectors included (the function
// called, an argument, a method: use.bind(r) and r.use()); Status("b") and
// Other() expecting the same "ok" are two checks.
func sameThing(x, y testscan.Assertion) bool {
	if x.Subject == y.Subject || x.Subject == "" || y.Subject == "" {
		return true
	}
	words := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }) {
			if len(w) >= 3 && unicode.IsLetter(rune(w[0])) && !genericWords[strings.ToLower(w)] {
				m[w] = true
			}
		}
		return m
	}
	return shared(words(x.Subject), words(y.Subject)) > 0
}

// rawLiterals returns the contents of the quoted strings of at least five
// characters in normalized source text, as written (escapes kept, to be
// found in other normalized text; stringLiterals unescapes them).
func rawLiterals(src string) []string {
	var out []string
	literalSpans(src, func(start, end int) {
		if lit := src[min(start+1, end):end]; end < len(src) && len(lit) >= 5 {
			out = append(out, lit)
		}
	})
	return out
}

// madeTests are the tests a change created that run, which may carry an
// old test's checks (withoutCarried), indexed by the functions they call:
// a range's net change has hundreds, and each changed test asked about
// all of them.
type madeTests struct {
	all    []*locTest
	byCall map[string][]int // indexes into all, by the name of a call
	byKey  map[string][]int // by the visibilityKey of a call's name
}

func indexMade(made []*locTest) *madeTests {
	m := &madeTests{all: made, byCall: map[string][]int{}, byKey: map[string][]int{}}
	for i, c := range made {
		for _, call := range c.tc.Calls {
			if l := m.byCall[call.Name]; len(l) == 0 || l[len(l)-1] != i {
				m.byCall[call.Name] = append(l, i)
			}
			k := visibilityKey(call.Name)
			if l := m.byKey[k]; len(l) == 0 || l[len(l)-1] != i {
				m.byKey[k] = append(l, i)
			}
		}
	}
	return m
}

// carriers returns, in their order, the tests of m that may carry o's
// checks: of o's language, calling a function o calls (calls; every test
// when o calls none) or, when decls is set, a name the change respelled
// (callsRespelled).
func (m *madeTests) carriers(o *locTest, calls map[string]bool, decls *codeDecls) []*locTest {
	var out []*locTest
	if calls == nil {
		for _, c := range m.all {
			if c.side.ext == o.side.ext {
				out = append(out, c)
			}
		}
		return out
	}
	var at []int
	seen := map[int]bool{}
	add := func(l []int) {
		for _, i := range l {
			if !seen[i] {
				seen[i] = true
				at = append(at, i)
			}
		}
	}
	var byKey map[string]string // calls by visibilityKey, once asked
	for name := range calls {
		add(m.byCall[name])
		if decls != nil {
			add(m.byKey[visibilityKey(name)])
		}
	}
	sort.Ints(at)
	for _, i := range at {
		c := m.all[i]
		if c.side.ext != o.side.ext {
			continue
		}
		if !callsAny(c.tc, calls) {
			if byKey == nil {
				byKey = respellable(calls)
			}
			if !callsRespelled(c.tc, calls, byKey, decls) {
				continue
			}
		}
		out = append(out, c)
	}
	return out
}

// withoutCarried returns the old test without the checks the change moved
// verbatim (or strengthened) into a test it created (made, nil for none):
// a test split in two keeps its checks. A created test may call what the
// old one called under a name the change respelled (decls, may be nil): a
// check that moved with its function into another Go package calls it
// with a capital. n, when not nil, is what the old test became: the
// checks it still makes stay.
func withoutCarried(o, n *locTest, made *madeTests, decls *codeDecls) *locTest {
	if made == nil || len(made.all) == 0 {
		return o
	}
	var calls map[string]bool // o's, see sharesCall
	if len(o.tc.Calls) > 0 {
		calls = callNames(o.tc)
	}
	cands := made.carriers(o, calls, decls)
	if len(cands) == 0 {
		return o
	}
	var stays map[string]int // the checks n makes, by assertKey
	if n != nil {
		stays = make(map[string]int, len(n.tc.Assertions))
		for _, y := range n.tc.Assertions {
			stays[assertKey(y)]++
		}
	}
	var keep []testscan.Assertion
	dropped := false
	for _, x := range o.tc.Assertions {
		moved := false
		lits := expectedLiterals(x)
		if k := assertKey(x); stays[k] > 0 {
			// A check the test still makes is carried elsewhere only by
			// the same check, not by a test that merely holds its
			// literals: read as gone, it would be left in the new
			// version to stand in for a check the test dropped.
			stays[k]--
			lits = nil
		}
		for _, c := range cands {
			// A check moved into the test's own new subtests still runs
			// in it: the same subject is enough there.
			child := c.side.path == o.side.path && strings.HasPrefix(c.tc.ID, o.tc.ID+"/")
			for _, y := range c.tc.Assertions {
				if child && carries(x, y) || carriesValueOf(x, lits, y) {
					moved = true
					break
				}
			}
			if moved {
				break
			}
		}
		if moved {
			dropped = true
			continue
		}
		keep = append(keep, x)
	}
	if !dropped {
		return o
	}
	tc := *o.tc
	tc.Assertions = keep
	return &locTest{pr: o.pr, side: o.side, tc: &tc}
}

func reportCarried(cs []carriedTest) []gate.Finding {
	var out []gate.Finding
	for _, c := range cs {
		names := make([]string, 0, len(c.by))
		for _, n := range c.by {
			names = append(names, n.side.path+": "+n.tc.ID)
		}
		what := "its checks run in"
		switch c.how {
		case "family":
			what = "it runs on as"
		case "reshaped":
			what = "checks of the same structure with other values run in"
		}
		msg := fmt.Sprintf("test %s is gone from %s, but %s %s, which the change created or gave new checks; confirm they cover what it checked", c.o.tc.ID, c.o.side.path, what, quoteList(names, 3))
		out = append(out, gate.NewFinding(gate.RuleTestCarried, gate.SeverityMedium, c.o.side.path, c.o.tc.Line, c.o.tc.ID, "", "", msg+"."))
	}
	return out
}

// gainedChecks returns, for each new test matched to an old one, the
// checks it has that the old one did not.
func gainedChecks(m map[*locTest]match) map[*locTest][]testscan.Assertion {
	out := map[*locTest][]testscan.Assertion{}
	for o, mt := range m {
		if mt.n == nil {
			continue
		}
		had := map[string]int{}
		for _, x := range o.tc.Assertions {
			had[assertKey(x)]++
		}
		for _, y := range mt.n.tc.Assertions {
			if k := assertKey(y); had[k] > 0 {
				had[k]--
				continue
			}
			out[mt.n] = append(out[mt.n], y)
		}
	}
	return out
}

// runs reports whether a test runs where the gate and CI do: not skipped,
// or skipped only on some platforms or in short runs.
func runs(t *testscan.TestCase) bool {
	if t.Skip == nil {
		return true
	}
	switch t.Skip.Kind {
	case testscan.SkipConditional:
		return !t.Skip.EnvGuard
	case testscan.SkipShortGuard:
		return true
	}
	return false
}
