package analyze

import (
	"bytes"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/ralph-gate/ralph-gate/internal/analyze/ci"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scanners"
)

// maxCallDepth bounds how far calls are followed from a test: helper, the
// helpers it calls, and so on.
const maxCallDepth = 4

// callReach follows the calls of tests and helpers (testscan.TestCase.Calls,
// File.HelperCalls) to the checks of the helpers they reach, on each side of
// a change, to tell a check moved behind a call from a check deleted: a test
// that stops checking `require.NoError(t, db.Close())` itself and now calls a
// constructor that registers that check has lost nothing. Checks are counted
// per call site (a helper called from two places checks twice), and a check
// counts as moved only when the calls at the new side reach it more times
// than those at the old side (same kind, operands and negation): a helper
// that was called all along credits nothing.
//
// Helpers are looked up by name among the changed files of the test's
// language (for Go, of its package's directory only) and, when a name is not
// found there, among the test files of the test's directory that the change
// did not touch (Change.Siblings). Everything is read lazily: only a test or
// helper that lost checks pays for it. Not safe for concurrent use.
type callReach struct {
	a     *Analyzer
	pairs []*pair
	// gained is helperChecksGained's list, once read.
	gained   *[]testscan.Assertion
	siblings func(dir string) []Source
	changed  map[string]bool          // paths on either side of the change
	sibFiles map[string][]Source      // unchanged test files by directory
	scopes   [2]map[string]*callScope // old and new side, by language and directory
	// changedHelpers is 0 until helpersChanged looked, then 1 (no) or 2 (yes).
	changedHelpers int
	// reworded counts the checks credit took as reworded or folded into
	// the checks of a helper, by the first call of the test that lost them
	// (see standIns).
	reworded map[*testscan.Call]int
	// gain is helperGain(pairs), once read (see undoDoubleCredit).
	gain map[string]int
	// uncalled holds neverRuns's answers, by helper.
	uncalled map[string]bool
	// notices are retiredNotices', once read.
	notices *[]string
	// raises are retiredRaises', once read.
	raises map[string][]retiredRaise
	// identities are identityWrappers', once read.
	identities map[string]bool
}

// callScope is what one side of a change defines for the tests of one
// directory: the helpers' checks and calls by helper name.
type callScope struct {
	cr      *callReach
	old     bool
	lang    testscan.Lang
	dir     string
	asserts map[string][]testscan.Assertion
	calls   map[string][]testscan.Call
	known   map[string]bool
	bySeg   map[string][]string // "m" -> the helpers "m", "Recv.m", "module::m"
	lazy    []lazySource        // files read in when they declare a name looked for
	sibs    bool                // the untouched siblings are among lazy
	loaded  map[string]bool     // the lazy files read in, by path
	ensured map[string]bool     // names whose declaring files are read in
	rank    map[string]int      // the lazy index of the file that defines a helper
	// importDirs are the other folders the scope's tests import modules
	// from (File.Imports): their test files are siblings too.
	importDirs []string
}

func (a *Analyzer) newCallReach(pairs []*pair, siblings func(string) []Source) *callReach {
	return &callReach{a: a, pairs: pairs, siblings: siblings}
}

// credit returns the checks of lost that the calls at the new side do not
// newly reach: those not moved behind a call. o and n are the two versions
// of the file of the test or helper that lost them; oldCalls and newCalls
// are its calls in each.
func (cr *callReach) credit(lost []testscan.Assertion, o *side, oldCalls []testscan.Call, n *side, newCalls []testscan.Call) []testscan.Assertion {
	if cr == nil || len(lost) == 0 || len(newCalls) == 0 || n == nil || n.ext == nil {
		return lost
	}
	if sameCalls(oldCalls, newCalls) && !cr.helpersChanged() {
		return lost // the same calls into the same helpers reach the same checks
	}
	reached := cr.scope(false, n).reach(newCalls)
	if len(reached) == 0 {
		return lost
	}
	if o != nil && o.ext != nil && len(oldCalls) > 0 {
		for k, v := range cr.scope(true, o).reach(oldCalls) {
			reached[k] -= v
		}
	}
	return cr.standIns(lost, reached, cr.scope(false, n), newCalls)
}

// looseKey is an assertKey with the identifier that starts its subject
// blanked, when a selector or call follows it (`db.Close()`: `_.Close()`);
// "" for other subjects, whose names are all they have.
func looseKey(k string) string {
	parts := strings.SplitN(k, "\x00", 4) // kind, negated, subject, rest
	if len(parts) < 4 {
		return ""
	}
	subj := parts[2]
	i := 0
	for i < len(subj) && (subj[i] == '_' || subj[i] >= 'a' && subj[i] <= 'z' || subj[i] >= 'A' && subj[i] <= 'Z' || i > 0 && subj[i] >= '0' && subj[i] <= '9') {
		i++
	}
	if i == 0 || i == len(subj) || subj[i] != '.' {
		return ""
	}
	return parts[0] + "\x00" + parts[1] + "\x00_" + subj[i:] + "\x00" + parts[3]
}

// sameCalls reports whether two lists hold the same calls and call sites.
func sameCalls(a, b []testscan.Call) bool {
	if len(a) != len(b) {
		return false
	}
	sites := make(map[string]int, len(a))
	for _, c := range a {
		sites[c.Name] += c.Sites
	}
	for _, c := range b {
		if sites[c.Name] != c.Sites {
			return false
		}
	}
	return true
}

// helpersChanged reports whether any helper of the change differs between
// its sides (its checks, its calls, or the helpers there are). Masked facts
// do for this: what masking leaves out is the same on both sides.
func (cr *callReach) helpersChanged() bool {
	if cr.changedHelpers == 0 {
		cr.changedHelpers = 1
		for _, pr := range cr.pairs {
			var o, n *testscan.File
			if pr.old != nil {
				o = pr.old.facts
			}
			if pr.new != nil {
				n = pr.new.facts
			}
			if !sameHelpers(o, n) {
				cr.changedHelpers = 2
				break
			}
		}
	}
	return cr.changedHelpers == 2
}

func sameHelpers(o, n *testscan.File) bool {
	var empty testscan.File
	if o == nil {
		o = &empty
	}
	if n == nil {
		n = &empty
	}
	if len(o.Helpers) != len(n.Helpers) || len(o.HelperAssertions) != len(n.HelperAssertions) || len(o.HelperCalls) != len(n.HelperCalls) {
		return false
	}
	for i := range o.Helpers {
		if o.Helpers[i] != n.Helpers[i] {
			return false
		}
	}
	for i := range o.HelperAssertions {
		x, y := o.HelperAssertions[i], n.HelperAssertions[i]
		if x.Helper != y.Helper || assertKey(x) != assertKey(y) || x.Strength != y.Strength {
			return false
		}
	}
	for name, calls := range o.HelperCalls {
		if !sameCalls(calls, n.HelperCalls[name]) {
			return false
		}
	}
	return true
}

// helperCalls returns a helper's calls on one side of a change.
func (cr *callReach) helperCalls(s *side, old bool, name string) []testscan.Call {
	if cr == nil || s == nil || s.ext == nil {
		return nil
	}
	sc := cr.scope(old, s)
	sc.ensure(lastSegment(name))
	return sc.calls[name]
}

// scope returns the helpers visible from the file s on one side. The
// changed files parsed whole are read in at once; the others (the whole
// versions of files parsed masked, and the untouched siblings) only when a
// call looks for a name their text declares.
func (cr *callReach) scope(old bool, s *side) *callScope {
	lang := s.ext.Lang()
	dir := path.Dir(s.path)
	i := 1
	if old {
		i = 0
	}
	key := string(lang) + "\x00" + dir
	if sc := cr.scopes[i][key]; sc != nil {
		return sc
	}
	sc := &callScope{cr: cr, old: old, lang: lang, dir: dir,
		asserts: map[string][]testscan.Assertion{},
		calls:   map[string][]testscan.Call{},
		known:   map[string]bool{},
		bySeg:   map[string][]string{},
		ensured: map[string]bool{},
		rank:    map[string]int{},
	}
	var others []lazySource // changed files of other folders, after the test's own
	for _, pr := range cr.pairs {
		f, p, key, data := pr.new, pr.fc.NewPath, pr.fc.NewKey, pr.fc.New
		if old {
			f, p, key, data = pr.old, pr.fc.OldPath, pr.fc.OldKey, pr.fc.Old
		}
		if f == nil || f.facts == nil || f.ext == nil || f.ext.Lang() != lang || !f.isTest || lang == testscan.Go && path.Dir(p) != dir {
			continue
		}
		src := lazySource{Source: Source{Path: p, Key: key, Data: data}, narrow: pr.masked}
		if !pr.masked {
			src.facts = f.facts
		}
		if path.Dir(p) == dir {
			sc.lazy = append(sc.lazy, src)
			sc.importDirs = importDirs(sc.importDirs, dir, f.facts.Imports)
		} else {
			others = append(others, src)
		}
	}
	sc.lazy = append(sc.lazy, others...)
	if cr.scopes[i] == nil {
		cr.scopes[i] = map[string]*callScope{}
	}
	cr.scopes[i][key] = sc
	return sc
}

// maxImportDirs bounds the folders a scope reads for imported helpers.
const maxImportDirs = 8

// importDirs adds to dirs the folders, other than dir, that hold the
// modules imported from a file of dir: "./support/utils" names the folder
// test/support, "./support" may be that folder itself (its index module).
func importDirs(dirs []string, dir string, imports []string) []string {
	for _, spec := range imports {
		joined := path.Join(dir, spec)
		for _, d := range []string{path.Dir(joined), joined} {
			if len(dirs) < maxImportDirs && d != dir && d != "." && d != ".." && !strings.HasPrefix(d, "../") && !slices.Contains(dirs, d) {
				dirs = append(dirs, d)
			}
		}
	}
	return dirs
}

// lazySource is a file of a scope, read in when it declares a name looked
// for: every file is, the same way whether it was parsed whole (facts) or
// masked, so that masking changes what is parsed, never what is found.
type lazySource struct {
	Source
	facts *testscan.File
	// narrow: a changed file parsed masked, whose whole version would be
	// read for no other use, or a sibling not parsed before; a name looked
	// for in it reads only the functions the name stands for
	// (testscan.HelperNarrower) when the language can.
	narrow bool
}

// whole returns one side of a changed file with the facts of its whole
// version: a side parsed masked is parsed again whole (the cache keeps it).
func (cr *callReach) whole(pr *pair, old bool) *side {
	s, p, key, data := pr.new, pr.fc.NewPath, pr.fc.NewKey, pr.fc.New
	if old {
		s, p, key, data = pr.old, pr.fc.OldPath, pr.fc.OldKey, pr.fc.Old
	}
	if s == nil || s.facts == nil {
		return nil
	}
	if !pr.masked {
		return s
	}
	return cr.a.parse(p, key, data, pr.fc.Fragment, nil)
}

// add reads in the helpers of a file, the rank-th of the scope. A helper
// name two files define (a test's own shouldHaveBody and the shared one in
// test/support/utils.js) is the one of the file that comes first, whatever
// order they are read in: the changed files of the test's folder, then the
// other changed files, then the untouched ones of its folder, then of the
// folders it imports from.
func (sc *callScope) add(f *testscan.File, rank int) {
	if f == nil {
		return
	}
	mine := map[string]bool{}
	for _, name := range f.Helpers {
		if r, ok := sc.rank[name]; ok && r <= rank && !mine[name] {
			continue // an earlier file defines it
		}
		if _, ok := sc.rank[name]; !ok {
			seg := lastSegment(name)
			sc.bySeg[seg] = append(sc.bySeg[seg], name)
		}
		sc.known[name] = true
		sc.rank[name] = rank
		mine[name] = true
		delete(sc.asserts, name)
		delete(sc.calls, name)
	}
	for _, x := range f.HelperAssertions {
		if mine[x.Helper] {
			sc.asserts[x.Helper] = append(sc.asserts[x.Helper], x)
		}
	}
	for name, calls := range f.HelperCalls {
		if mine[name] {
			sc.calls[name] = append(sc.calls[name], calls...)
		}
	}
}

// resolve names the helpers a call may reach: a function by its name, or
// failing that every helper whose name ends in the call's last segment (a
// method call ".m" reaches "Recv.m", a Java call "check" reaches
// "FooTest.check", a Rust "util::check" reaches "tests::util::check"). A
// name not found among the changed files is looked up in the unchanged test
// files of the directory.
func (sc *callScope) resolve(call string) []string {
	seg := lastSegment(call)
	sc.ensure(seg)
	if !strings.HasPrefix(call, ".") && sc.known[call] {
		return []string{call}
	}
	return sc.bySeg[seg]
}

// ensure reads in every lazy file whose text may declare name, so that a
// name resolves to the same helpers whichever files were parsed masked:
// parsing every test file of a large package for a call to production code
// would cost more than the whole analysis.
func (sc *callScope) ensure(name string) {
	if sc.ensured[name] {
		return
	}
	sc.ensured[name] = true
	if !sc.sibs {
		sc.sibs = true
		for _, d := range append([]string{sc.dir}, sc.importDirs...) {
			for _, src := range sc.cr.siblingSources(d) {
				// A sibling nobody parsed is read only for the names
				// looked up in it: a large package's test files are
				// most of a commit's parsing otherwise.
				sc.lazy = append(sc.lazy, lazySource{Source: src, narrow: src.Parsed == nil})
			}
		}
	}
	for rank, src := range sc.lazy {
		if sc.loaded[src.Path] || src.Data != nil && !sc.cr.a.mayDeclare(sc.lang, src.Source, name) {
			continue
		}
		if src.narrow {
			if f := sc.cr.a.parseHelper(sc.lang, src.Source, name); f != nil {
				sc.add(f, rank)
				continue
			}
		}
		if sc.loaded == nil {
			sc.loaded = map[string]bool{}
		}
		sc.loaded[src.Path] = true
		f := src.facts
		if f == nil {
			s := sc.cr.a.parse(src.Path, src.Key, src.Data, false, src.Parsed)
			if s.ext == nil || !s.isTest || s.ext.Lang() != sc.lang {
				continue
			}
			f = s.facts
		}
		sc.add(f, rank)
	}
}

// parseHelper reads, of a test file, only the functions a helper name may
// stand for (see testscan.HelperNarrower); nil when its language cannot
// tell them apart. What it reads is not cached: it serves one name of one
// change.
func (a *Analyzer) parseHelper(lang testscan.Lang, src Source, name string) *testscan.File {
	ext := scanners.ForPath(src.Path)
	n, ok := ext.(testscan.HelperNarrower)
	if !ok || ext.Lang() != lang || src.Data == nil {
		return nil
	}
	m, ok := n.KeepHelper(src.Path, src.Data, name)
	if !ok {
		return nil
	}
	s := a.parseMasked(src.Path, m)
	if !s.isTest || s.facts == nil {
		return nil
	}
	return s.facts
}

// mayDeclare reports whether a file may declare a helper name: its text
// holds a declaration of the name in the language's syntax (see declared),
// or, for languages whose declarations do not start with a keyword, the
// name.
func (a *Analyzer) mayDeclare(lang testscan.Lang, src Source, name string) bool {
	switch lang {
	case testscan.Go, testscan.Python, testscan.Rust:
		return a.declared(lang, src)[name]
	}
	return bytes.Contains(src.Data, []byte(name))
}

// maxDeclNames bounds the names a nameCache holds over all versions; it
// is emptied when full (a long range reads many versions of a folder).
const maxDeclNames = 1 << 16

// nameCache holds sets of names read from file versions, by version,
// at most maxDeclNames names in all; safe for concurrent use. A set is
// read-only once stored.
type nameCache struct {
	mu    sync.Mutex
	sets  map[string]map[string]bool
	count int
}

// get returns the set stored under key.
func (c *nameCache) get(key string) (map[string]bool, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m, ok := c.sets[key]
	return m, ok
}

// put stores m under key, first emptying the cache when m would not fit.
func (c *nameCache) put(key string, m map[string]bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sets == nil || c.count+len(m) > maxDeclNames {
		c.sets, c.count = map[string]map[string]bool{}, 0
	}
	c.sets[key] = m
	c.count += len(m) + 1
}

// declared returns the helper names a file may declare, read from its text
// once per version: Go's functions and methods whose signature takes a
// testing or assertion value (all methods in a file with suites), Python's
// defs, Rust's fns.
func (a *Analyzer) declared(lang testscan.Lang, src Source) map[string]bool {
	ck := ""
	if src.Key != "" {
		ck = string(lang) + ":" + src.Path + ":" + src.Key
		if m, ok := a.decls.get(ck); ok {
			return m
		}
	}
	var m map[string]bool
	switch lang {
	case testscan.Go:
		m = goDeclared(src.Data)
	case testscan.Python:
		m = keywordDeclared(src.Data, "def ")
	case testscan.Rust:
		m = keywordDeclared(src.Data, "fn ")
	}
	if ck != "" {
		a.decls.put(ck, m)
	}
	return m
}

// keywordDeclared collects the names that follow kw and precede "(", "[" or
// "<" anywhere in src.
func keywordDeclared(src []byte, kw string) map[string]bool {
	m := map[string]bool{}
	pat := []byte(kw)
	for {
		i := bytes.Index(src, pat)
		if i < 0 {
			return m
		}
		src = src[i+len(pat):]
		if n := identLen(src); n > 0 && n < len(src) && (src[n] == '(' || src[n] == '[' || src[n] == '<') {
			m[string(src[:n])] = true
		}
	}
}

// goDeclared collects the Go functions and methods that may be helpers: a
// signature (up to the body's brace) that takes a testing or assertion
// value, or any method in a file with suites (whose methods are helpers
// whatever they take). A mock's Close method is not a helper, and a file
// that only declares one is not parsed for it.
func goDeclared(src []byte) map[string]bool {
	m := map[string]bool{}
	suites := bytes.Contains(src, []byte("Suite")) || bytes.Contains(src, []byte(") Test"))
	pat := []byte("func ")
	for rest := src; ; {
		i := bytes.Index(rest, pat)
		if i < 0 {
			return m
		}
		rest = rest[i+len(pat):]
		r, method := rest, false
		if len(r) > 0 && r[0] == '(' {
			j := bytes.IndexByte(r, ')')
			if j < 0 {
				continue
			}
			r, method = bytes.TrimLeft(r[j+1:], " "), true
		}
		n := identLen(r)
		if n == 0 || n >= len(r) || r[n] != '(' && r[n] != '[' {
			continue
		}
		sig := r[n:]
		if j := bytes.IndexByte(sig, '{'); j >= 0 {
			sig = sig[:j]
		}
		if method && suites || testingSignature(sig) {
			m[string(r[:n])] = true
		}
	}
}

func testingSignature(sig []byte) bool {
	for _, tok := range goHelperParams {
		if bytes.Contains(sig, tok) {
			return true
		}
	}
	return false
}

// identLen is the length of the identifier that starts b.
func identLen(b []byte) int {
	n := 0
	for n < len(b) && (b[n] == '_' || b[n] >= 'a' && b[n] <= 'z' || b[n] >= 'A' && b[n] <= 'Z' || n > 0 && b[n] >= '0' && b[n] <= '9' || b[n] >= 0x80) {
		n++
	}
	return n
}

// goHelperParams are the parameter types that make a Go function a helper
// (see the golang extractor's hasAssertingParam).
var goHelperParams = [][]byte{
	[]byte("testing."), []byte("T)"), []byte("T,"), []byte("TB"), []byte(".C"),
	[]byte("Assertions"), []byte("is.I"),
}

// lastSegment is what follows the last "." or "::" of a name.
func lastSegment(name string) string {
	if i := strings.LastIndexAny(name, ".:"); i >= 0 {
		return name[i+1:]
	}
	return name
}

// reach counts the checks of the helpers that calls reach, by assertKey, each
// as many times as it is called: a helper's check counts once per call site
// of the helper, times the call sites of its caller. A helper is entered
// once, at the shortest depth that reaches it.
func (sc *callScope) reach(calls []testscan.Call) map[string]int {
	out, _ := sc.reachHelpers(calls)
	return out
}

// reachHelpers is reach, and the helpers reached with their call sites.
func (sc *callScope) reachHelpers(calls []testscan.Call) (map[string]int, map[string]int) {
	out := map[string]int{}
	seen := map[string]int{}
	frontier := calls
	for depth := 0; depth < maxCallDepth && len(frontier) > 0; depth++ {
		var next []testscan.Call
		for _, c := range frontier {
			for _, h := range sc.resolve(c.Name) {
				if seen[h] > 0 {
					continue
				}
				seen[h] = c.Sites
				for _, x := range sc.asserts[h] {
					out[assertKey(x)] += c.Sites
				}
				for _, cc := range sc.calls[h] {
					next = append(next, testscan.Call{Name: cc.Name, Sites: cc.Sites * c.Sites})
				}
			}
		}
		frontier = next
	}
	return out, seen
}

// through is what a test does through the helpers it calls on its side:
// the checks of at least strength min they make (once per call site, as
// reach counts them) and the functions they call, its own calls included.
// A test rewritten as a thin caller of a table-driven helper
// (TestScrapeLoopSeriesRefChange calling testScrapeLoopSeriesRefChange)
// checks and calls what the helper does.
func (cr *callReach) through(n *locTest, min testscan.Strength) (checks int, calls map[string]bool) {
	calls = callNames(n.tc)
	if cr == nil || n.side == nil || n.side.ext == nil || len(n.tc.Calls) == 0 {
		return 0, calls
	}
	sc := cr.scope(false, n.side)
	_, seen := sc.reachHelpers(n.tc.Calls)
	for h, sites := range seen {
		for _, x := range sc.asserts[h] {
			if x.Strength >= min {
				checks += sites
			}
		}
		for _, c := range sc.calls[h] {
			calls[c.Name] = true
		}
	}
	return checks, calls
}

// droppedCall reports whether a call of old has fewer sites in cur.
func droppedCall(old, cur []testscan.Call) bool {
	for _, c := range old {
		left := 0
		for _, d := range cur {
			if d.Name == c.Name {
				left = d.Sites
				break
			}
		}
		if left < c.Sites {
			return true
		}
	}
	return false
}

// compareReach reports a test that runs fewer of its helpers' checks: a
// deleted `checkAdd(t, -1, 1, 0)` line drops the helper's checks from the
// test as surely as a deleted assert, while the test itself asserts as much
// as before. Checks reached at the new side, and the test's own new
// assertions, make up for lost ones. High when the test no longer calls a
// helper that compared values, gained no check in their place, asserts no
// more by itself, and the file as a whole calls that helper less (a call
// moved to a sibling test is a refactor); medium otherwise (cases folded
// into a loop call the helper from fewer places).
func (a *Analyzer) compareReach(o, n *locTest, cr *callReach) []gate.Finding {
	out := rewordedFinding(n, cr)
	return append(out, a.reachDropped(o, n, cr)...)
}

// rewordedFinding reports checks of a test that credit took as moved into
// the helpers it now calls in other words or folded into a combined check
// (see standIns): medium, since a check about the same values in other
// words can pin as much as the old one, or less.
func rewordedFinding(n *locTest, cr *callReach) []gate.Finding {
	k := cr.rewordedChecks(n.tc)
	if k == 0 {
		return nil
	}
	msg := fmt.Sprintf("%d of the checks test %s gave up %s reached through the helpers it calls only in other words (a check about the same values, or one combined check); confirm the helpers pin every value the test did",
		k, n.tc.ID, ci.Plural(k, "is", "are"))
	return []gate.Finding{gate.NewFinding(gate.RuleHelperCheckReworded, gate.SeverityMedium, n.side.path, n.tc.Line, n.tc.ID, "", "", msg+".")}
}

// reachDropped is compareReach for the calls a test dropped.
func (a *Analyzer) reachDropped(o, n *locTest, cr *callReach) []gate.Finding {
	ot, nt := o.tc, n.tc
	if cr == nil || len(ot.Calls) == 0 || !droppedCall(ot.Calls, nt.Calls) || n.side.ext == nil || o.side.ext == nil {
		return nil
	}
	osc, nsc := cr.scope(true, o.side), cr.scope(false, n.side)
	oldReach, oldHelpers := osc.reachHelpers(ot.Calls)
	if len(oldReach) == 0 {
		return nil
	}
	newReach, newHelpers := nsc.reachHelpers(nt.Calls)
	// A helper turned into a parameterized test over the values the test
	// passed it runs its checks as often as the calls did.
	for _, h := range sortedNames(oldHelpers) {
		sites := oldHelpers[h]
		if newHelpers[h] > 0 || sites == 0 || helperBecameTest(h, osc.asserts[h], ot, cr.whole(n.pr, false)) < sites {
			continue
		}
		for _, x := range osc.asserts[h] {
			newReach[assertKey(x)] += sites
		}
		newHelpers[h] = sites
	}
	// What the helpers run for the test changed by reachDelta, what it
	// checks itself by ownDelta. A check the helpers no longer run for it
	// is lost unless the test now makes it itself; its own lost checks are
	// the assertion rules' business, and those moved into a helper were
	// credited there. Other checks gained, helpers' or its own, at least as
	// strong as the weakest lost one, make up for lost ones.
	strength := map[string]testscan.Strength{}
	ownDelta := map[string]int{}
	for _, x := range ot.Assertions {
		ownDelta[assertKey(x)]--
	}
	for _, x := range nt.Assertions {
		k := assertKey(x)
		ownDelta[k]++
		strength[k] = x.Strength
	}
	for _, hs := range []struct {
		sc      *callScope
		helpers map[string]int
	}{{osc, oldHelpers}, {nsc, newHelpers}} {
		for h := range hs.helpers {
			for _, x := range hs.sc.asserts[h] {
				strength[assertKey(x)] = x.Strength
			}
		}
	}
	reachDelta := map[string]int{}
	for k, v := range oldReach {
		reachDelta[k] -= v
	}
	for k, v := range newReach {
		reachDelta[k] += v
	}
	lost, weakest := 0, testscan.Strong
	for k, d := range reachDelta {
		if d += max(0, ownDelta[k]); d < 0 && strength[k] > testscan.Trivial {
			lost -= d
			weakest = min(weakest, strength[k])
		}
	}
	gained := 0
	for k, d := range reachDelta {
		if d += ownDelta[k]; d > 0 && strength[k] >= weakest {
			gained += d
		}
	}
	for k, d := range ownDelta {
		if _, ok := reachDelta[k]; !ok && d > 0 && strength[k] >= weakest {
			gained += d
		}
	}
	if lost <= gained {
		return nil
	}
	var gone []string
	high := false
	for _, h := range sortedNames(oldHelpers) {
		if newHelpers[h] > 0 || len(osc.asserts[h]) == 0 {
			continue
		}
		gone = append(gone, h)
		if comparedValues(osc.asserts[h]) && gained == 0 && len(nt.Assertions) <= len(ot.Assertions) &&
			fileSites(cr.whole(n.pr, false), h) < fileSites(cr.whole(o.pr, true), h) {
			high = true
		}
	}
	file, id := n.side.path, nt.ID
	if len(gone) == 0 {
		msg := fmt.Sprintf("test %s runs %d fewer %s of the helpers it calls (it calls them from fewer places); if cases were folded into a loop, confirm the table kept them",
			id, lost-gained, ci.Plural(lost-gained, "check", "checks"))
		return []gate.Finding{gate.NewFinding(gate.RuleHelperCallRemoved, gate.SeverityMedium, file, nt.Line, id, "", "", msg+".")}
	}
	sev := gate.SeverityMedium
	msg := fmt.Sprintf("test %s no longer calls %s, and runs %d fewer %s; unless another test took the call over, it checks less",
		id, quoteList(gone, 3), lost-gained, ci.Plural(lost-gained, "check", "checks"))
	if high {
		sev = gate.SeverityHigh
		msg = fmt.Sprintf("test %s no longer calls %s, whose checks it ran (%d fewer %s), and checks nothing new in their place",
			id, quoteList(gone, 3), lost-gained, ci.Plural(lost-gained, "check", "checks"))
	}
	return []gate.Finding{gate.NewFinding(gate.RuleHelperCallRemoved, sev, file, nt.Line, id, "", strings.Join(gone, ";"), msg+".")}
}

// fileSites counts the places in a file that call a helper by its name or
// last segment, from tests and helpers.
func fileSites(s *side, helper string) int {
	if s == nil || s.facts == nil {
		return 0
	}
	f := s.facts
	seg := lastSegment(helper)
	count := func(calls []testscan.Call) int {
		n := 0
		for _, c := range calls {
			if c.Name == helper || lastSegment(c.Name) == seg {
				n += c.Sites
			}
		}
		return n
	}
	n := 0
	for i := range f.Tests {
		n += count(f.Tests[i].Calls)
	}
	for _, calls := range f.HelperCalls {
		n += count(calls)
	}
	return n
}

func sortedNames(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// siblingSources lists the test files of dir that the change did not touch,
// once per directory (they are the same on both sides). A file's Data is nil
// when the analyzer has parsed that version already.
func (cr *callReach) siblingSources(dir string) []Source {
	if cr.siblings == nil {
		return nil
	}
	if s, ok := cr.sibFiles[dir]; ok {
		return s
	}
	if cr.changed == nil {
		cr.changed = map[string]bool{}
		for _, pr := range cr.pairs {
			cr.changed[pr.fc.OldPath] = true
			cr.changed[pr.fc.NewPath] = true
		}
		cr.sibFiles = map[string][]Source{}
	}
	var out []Source
	for _, src := range cr.siblings(dir) {
		if !cr.changed[src.Path] && !cr.a.cfg.Ignored(src.Path) {
			out = append(out, src)
		}
	}
	cr.sibFiles[dir] = out
	return out
}
