package analyze

import (
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/ralph-gate/ralph-gate/internal/analyze/ci"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/par"
	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scanners"
)

// FileChange is one changed file of a change.
type FileChange struct {
	// OldPath is "" for an added file, NewPath "" for a deleted one.
	OldPath, NewPath string
	// Old and New are the file's contents on each side.
	Old, New []byte
	// OldKey and NewKey identify the contents (git blob hashes) so that a version
	// parsed once is not parsed again; "" disables caching for that side.
	OldKey, NewKey string
	// Fragment is set when the contents were rebuilt from diff hunks: regions the
	// diff did not show are blank on both sides.
	Fragment bool
	// Skip, when set, says why the contents are not available (binary, too large,
	// submodule); the file is reported as a note and only its path is analyzed.
	Skip string
	// OldParsed and NewParsed, when set (from Analyzer.Parsed), stand for a
	// side the analyzer has read before: its contents may then be nil.
	OldParsed, NewParsed *Parsed
}

// Source is a file on one side of a change, read on demand. Data may be nil
// when Parsed is set.
type Source struct {
	Path   string
	Key    string
	Data   []byte
	Parsed *Parsed
}

// Parsed is what the analyzer read from one file version, handed out by
// Analyzer.Parsed so that a caller need not read that version again.
type Parsed struct {
	facts  *testscan.File
	failed string
	size   int // of the source, for factsCache
}

// Change is a set of file changes: one commit against its parent, the net change
// of a range, or a patch.
type Change struct {
	// Commit is the sha that made the change, "" for a net change or a patch.
	Commit string
	Files  []FileChange
	// RelatedTests, when not nil, returns the new side's test files that exercise a
	// production file (same directory and the conventional test folders), used to
	// spot production code that special-cases a test's literal values.
	RelatedTests func(prodPath string) []Source
	// Siblings, when not nil, returns the new side's test files in a
	// directory; the analyzer reads those the change did not touch (the same
	// on both sides) for the helpers that changed tests call (see Calls in
	// testscan.TestCase). It is called only when a test or helper lost checks
	// or calls, and only the files that name the helper looked for are parsed.
	Siblings func(dir string) []Source
	// BaseCI, when not nil, returns the CI files of the change's base
	// (workflows, Makefiles, CI scripts): what the project's CI runs, for
	// the questions the change's own files cannot answer (does CI run Go's
	// tests without -short?). Called only when such a question comes up.
	BaseCI func() []Source
	// Exists, when not nil, reports whether a path (a file or a directory)
	// exists at the base (head false) or at the change's new side (head
	// true): whether a test directory a runner stopped naming is still
	// there. Without it every such path is taken to exist.
	Exists func(p string, head bool) bool
	// ReadHead, when not nil, returns a file of the change's new side that
	// the change did not touch (nil when there is none): the package.json
	// of the package that tests moved into.
	ReadHead func(p string) []byte
	// ReadBase, when not nil, returns a file of the change's base (nil
	// when there is none): the runner configuration that says whether a
	// deleted test file ran at all.
	ReadBase func(p string) []byte
	// BaseFiles, when not nil, returns the files under a directory of the
	// change's base whose paths want keeps, at most max of them; ok is
	// false when there are more or the tree could not be read whole. It
	// answers whether anything at the base compiled a Rust file whose
	// tests the change skips (see uncompiledRust).
	BaseFiles func(dir string, want func(p string) bool, max int) (files []Source, ok bool)
}

// Analyzer holds the configuration, a cache of parsed file versions and the
// notes gathered so far. It is safe for concurrent use: the changes of a range can
// be analyzed in parallel, sharing what was parsed.
type Analyzer struct {
	cfg *config.Config

	// mask: each file version is analyzed once (see MaskUnchanged); a mask
	// must blank maskMin bytes to be used.
	mask    bool
	maskMin int

	mu    sync.Mutex
	cache factsCache
	// ci applies the CI rules, and keeps what it read of CI files (see
	// ci.Checker).
	ci *ci.Checker
	// patCache holds a runner configuration's collection patterns, by path
	// and blob.
	patCache map[string]map[string]map[string]bool
	decls    nameCache // the helper names test versions declare (see declared)
	// prodNames are the names Go production versions declare
	// (version.names), by path and blob key: a range asks for a version's
	// in the commit that made it, the next one that changed it and the net
	// change.
	prodNames nameCache
	notes     []gate.Note
	seen      map[string]bool
}

// New returns an Analyzer for a configuration (nil: the defaults).
func New(cfg *config.Config) *Analyzer {
	if cfg == nil {
		cfg = config.Default()
	}
	return &Analyzer{cfg: cfg, ci: ci.New(readsJSSelection), patCache: map[string]map[string]map[string]bool{}, seen: map[string]bool{}, maskMin: defaultMaskMin}
}

// MaskUnchanged tells the analyzer that each file version will be analyzed in
// one change only: a single commit, or the net change alone. It then parses
// only the parts of a file that differ between its two versions, where the
// language's extractor can tell them apart (testscan.Masker). A range of
// several commits should not set it: there each version is parsed once and
// shared by the commit before it, the commit after it and the net change.
func (a *Analyzer) MaskUnchanged() { a.mask = true }

// defaultMaskMin is the least a mask must blank to pay for its copies and
// scans: below it, parsing the whole versions costs about as much.
const defaultMaskMin = 32 << 10

// Notes returns what the analyzer skipped or could not read, once each, sorted
// by file so that parallel runs report them in a stable order.
func (a *Analyzer) Notes() []gate.Note {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := append([]gate.Note(nil), a.notes...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out
}

func (a *Analyzer) note(file, msg string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	k := file + "\x00" + msg
	if a.seen[k] {
		return
	}
	a.seen[k] = true
	a.notes = append(a.notes, gate.Note{File: file, Message: msg})
}

// side is one version of one file with what its extractor found.
type side struct {
	path   string
	ext    testscan.Extractor
	facts  *testscan.File
	isTest bool
	// outOfReach says why the language's test runner does not collect
	// this file's tests ("" when it does); see notCollected.
	outOfReach string
	// failed says why the version could not be parsed at all.
	failed string
	// names are the production names the version declares (version.names),
	// once read: a change with deleted tests asks for them from several
	// readers.
	names map[string]bool
}

// pair is a changed file with both sides parsed (a side is nil when absent).
type pair struct {
	fc       *FileChange
	an       *Analyzer // the analyzer reading it, for its caches (nil: none)
	old, new *side
	// masked is set when both sides were parsed masked (see MaskUnchanged):
	// their facts lack what the versions share.
	masked bool
	// readBase and readHead read a file at the change's base and head
	// (Change.ReadBase, ReadHead; nil when it has none), for text the
	// change did not carry (text).
	readBase, readHead func(p string) []byte
	// texts are the versions' texts text read, old first.
	texts [2][]byte
	read  [2]bool
	// floors is the runtime floor of its project, once read (see floor).
	floors *floorRead
}

// text is the text of the pair's old or new version: the change's, or,
// where the change carries none because the analyzer had parsed that
// version before (its facts reused, a range reading each blob once), read
// at the change's base or head, once.
func (p *pair) text(old bool) []byte {
	data, path, read, i := p.fc.New, p.fc.NewPath, p.readHead, 1
	if old {
		data, path, read, i = p.fc.Old, p.fc.OldPath, p.readBase, 0
	}
	if data != nil || path == "" || read == nil {
		return data
	}
	if !p.read[i] {
		p.texts[i], p.read[i] = read(path), true
	}
	return p.texts[i]
}

func (p *pair) path() string {
	if p.fc.NewPath != "" {
		return p.fc.NewPath
	}
	return p.fc.OldPath
}

// Analyze reports the findings of one change. Findings carry ch.Commit and
// Net=true; Combine decides what holds at HEAD.
func (a *Analyzer) Analyze(ch Change) []gate.Finding {
	var pairs []*pair
	var out []gate.Finding
	var pending []pendingPair
	for i := range ch.Files {
		fc := &ch.Files[i]
		p := fc.NewPath
		if p == "" {
			p = fc.OldPath
		}
		// The gate's own configuration is judged before ignores apply.
		out = append(out, a.ci.GateConfig(ciFile(fc))...)
		if a.cfg.Ignored(p) && (fc.OldPath == "" || a.cfg.Ignored(fc.OldPath)) {
			continue
		}
		if fc.Skip != "" {
			if f, ok := unreadable(fc, p); ok {
				out = append(out, f)
			} else {
				a.note(p, fc.Skip)
			}
			continue
		}
		pr := &pair{fc: fc, readBase: ch.ReadBase, readHead: ch.ReadHead, an: a}
		pending = append(pending, pendingPair{pr: pr,
			old: parseJob{&pr.old, fc.OldPath, fc.OldKey, fc.Old, fc.Fragment, fc.OldParsed, nil},
			new: parseJob{&pr.new, fc.NewPath, fc.NewKey, fc.New, fc.Fragment, fc.NewParsed, nil}})
		pairs = append(pairs, pr)
	}
	a.maskAll(pending)
	var jobs []parseJob
	for _, pp := range pending {
		fc := pp.pr.fc
		if fc.OldPath != "" && !a.cfg.Ignored(fc.OldPath) {
			jobs = append(jobs, pp.old)
		}
		if fc.NewPath != "" {
			jobs = append(jobs, pp.new)
		}
	}
	a.parseAll(jobs)
	a.dropUncompiledRust(pairs, ch)
	a.markUncompiledRust(pairs, ch)
	a.dropUncollectedJS(pairs, ch)
	dropHelperCalls(pairs)
	files := ciFiles(pairs)
	for i, pr := range pairs {
		out = append(out, unparsed(pr)...)
		cfg := dropNewMarkerFilters(a.ci.Config(files[i]), pr, pairs)
		out = append(out, cfg...)
		out = append(out, dedupeRunner(cfg, a.compareRunnerConfig(pr, pairs, files, ch.Exists))...)
		out = append(out, a.compareAssertLibs(pr)...)
	}
	baseCI := baseRuns(ch.BaseCI)
	out = append(out, a.ci.ChangeWide(files, baseCI, ch.Exists, ch.ReadHead)...)
	out = append(out, ci.DedupePrograms(out, a.ci.Programs(files))...)
	cr := a.newCallReach(pairs, ch.Siblings)
	out = append(out, a.compareTests(pairs, cr, baseCI, ch.Exists)...)
	out = append(out, a.conftestStubs(pairs, ch.Siblings)...)
	out = append(out, a.compareHelpers(pairs, cr)...)
	out = append(out, a.compareMarkers(pairs)...)
	out = append(out, a.compareConstraints(pairs)...)
	out = append(out, a.compareComparisons(pairs, ch.RelatedTests)...)
	out = append(out, a.compareExports(pairs)...)
	out = append(out, a.compareCommands(pairs)...)
	for i := range out {
		out[i].Commit = ch.Commit
		out[i].Net = true
		if out[i].Evidence == "" {
			out[i].Evidence = gate.EvidenceStatic
		}
	}
	a.cfg.Apply(out)
	Sort(out)
	return out
}

// pendingPair is a changed file with the parse jobs of its versions.
type pendingPair struct {
	pr       *pair
	old, new parseJob
}

// maskAll masks the modified files' versions (maskPair), on every core
// when several are large enough to mask: a range's net change has dozens,
// masked one at a time otherwise before anything is parsed.
func (a *Analyzer) maskAll(ps []pendingPair) {
	var todo []int
	big := 0 // versions large enough to mask (see maskMin)
	for i, pp := range ps {
		fc := pp.pr.fc
		if fc.OldPath != "" && fc.NewPath != "" && !a.cfg.Ignored(fc.OldPath) {
			todo = append(todo, i)
			if len(pp.old.data)+len(pp.new.data) >= a.maskMin {
				big++
			}
		}
	}
	minParallel := 2
	if !a.mask || big < 2 {
		minParallel = len(todo) + 1 // nothing worth the goroutines
	}
	// Each pair's jobs are its own; Parsed locks the cache.
	par.Each(len(todo), minParallel, func(k int) {
		pp := &ps[todo[k]]
		pp.pr.masked = a.maskPair(&pp.old, &pp.new)
	})
}

// maskPair replaces both versions of a modified file by their masked copies
// when MaskUnchanged is set and the language can mask. A masked version is
// cached under its key and its counterpart's: it is only valid against it.
func (a *Analyzer) maskPair(o, n *parseJob) bool {
	if !a.mask || o.fragment || o.data == nil || n.data == nil {
		return false
	}
	if a.Parsed(o.path, o.key) != nil && a.Parsed(n.path, n.key) != nil {
		return false // nothing to parse
	}
	ext := scanners.ForPath(n.path)
	if ext == nil || scanners.ForPath(o.path) != ext {
		return false
	}
	m, ok := ext.(testscan.Masker)
	if !ok {
		return false
	}
	// A file moved out of (or into) the runner's reach changes every test
	// in it, shared text or not.
	if notCollected(ext.Lang(), o.path) != notCollected(ext.Lang(), n.path) {
		return false
	}
	mo, mn, ok := m.MaskUnchanged(o.path, o.data, n.path, n.data, a.maskMin)
	if !ok {
		return false
	}
	if o.key != "" && n.key != "" {
		o.key, n.key = o.key+"~"+n.key, n.key+"~"+o.key
	} else {
		o.key, n.key = "", ""
	}
	o.data, n.data = nil, nil
	o.masked, n.masked = &mo, &mn
	return true
}

// parseJob is one file version to parse into *dst.
type parseJob struct {
	dst      **side
	path     string
	key      string
	data     []byte
	fragment bool
	known    *Parsed
	// masked, when set, is the version masked (see maskPair), read in
	// place of data.
	masked *testscan.Masked
}

// parseAll parses file versions on every core: parsing is most of the
// analyzer's work, and the versions are independent.
func (a *Analyzer) parseAll(jobs []parseJob) {
	par.Each(len(jobs), 2, func(i int) { *jobs[i].dst = a.parseJob(jobs[i]) })
}

func (a *Analyzer) parseJob(j parseJob) *side {
	if j.masked != nil {
		return a.parseMasked(j.path, *j.masked)
	}
	return a.parse(j.path, j.key, j.data, j.fragment, j.known)
}

// parseMasked reads a version masked by its language's extractor
// (testscan.Masker); what it finds serves one change only and is not cached.
func (a *Analyzer) parseMasked(p string, m testscan.Masked) *side {
	s := &side{path: p}
	s.ext = scanners.ForPath(p)
	mk, ok := s.ext.(testscan.Masker)
	if !ok {
		return s
	}
	s.isTest = s.ext.IsTestFile(p)
	s.outOfReach = notCollected(s.ext.Lang(), p)
	f, err := mk.ExtractMasked(p, m)
	s.record(a, f, err, false)
	return s
}

// record sets what an extraction gave, noting what it could not read.
func (s *side) record(a *Analyzer, f *testscan.File, err error, fragment bool) {
	p := s.path
	if err != nil || f == nil {
		s.failed = "it could not be read as " + string(s.ext.Lang()) + ": " + errString(err)
		if !s.isTest {
			a.note(p, "could not be read as "+string(s.ext.Lang())+": "+errString(err))
		}
		f = &testscan.File{Lang: s.ext.Lang(), Partial: true}
	} else if f.Partial && !fragment {
		a.note(p, "did not parse completely; findings in it are based on the parts that did")
	}
	selfChecks(f)
	s.facts = f
}

// selfChecks makes trivial, in every language, a check whose subject is its
// own expected value (assert.Equal(t, x, x), ErrorIs(err, err),
// assertEquals(a, a), expect(v).toBe(v)): it passes whatever the code does.
// A subject that calls something is left alone: expect(f()).toBe(f()) and
// assertEquals(o.hashCode(), o.hashCode()) check that two calls agree. Only
// where equality is structural (Go's testify and cmp, JavaScript's
// matchers): Java's assertEquals(a, a), Python's `a == a` and Rust's
// assert_eq!(a, a) call the type's own equality, which a test of its
// reflexivity checks.
func selfChecks(f *testscan.File) {
	self := f.Lang == testscan.Go || f.Lang == testscan.JavaScript
	for i := range f.Tests {
		for j := range f.Tests[i].Assertions {
			x := &f.Tests[i].Assertions[j]
			if self && x.Subject != "" && x.Subject == x.Expected && !strings.Contains(x.Subject, "(") {
				x.Strength = testscan.Trivial
			}
			if vacuous(x) {
				x.Strength = testscan.Trivial
			}
		}
	}
}

// vacuous reports whether a check of a condition holds whatever the code
// does: a condition checked true that has a constant true alternative (`x
// == 42 or True`, `a === 1 || true`), or checked false that has a constant
// false conjunct (`assert not (x != 42 and False)`, assertFalse(c && false)).
func vacuous(x *testscan.Assertion) bool {
	if x.Subject == "" {
		return false
	}
	positive := x.Expected == "" || x.Expected == "true" || x.Expected == "True"
	negative := x.Expected == "false" || x.Expected == "False"
	if x.Negated {
		positive, negative = negative, positive
	}
	// Only a condition with an operator is judged here: a lone constant
	// is the extractor's to rate (a Go table row's condition folded to
	// true for that row is a check the row does not make, not a check
	// written to pass).
	if positive && alwaysTruthy(x.Subject) {
		return true
	}
	// Python's conditional expression binds looser than a comparison:
	// `assert a == 42 if False else True` is `(a == 42) if False else
	// True`, which a reader may split as a == (42 if False else True).
	if strings.HasPrefix(x.Kind, "assert ") && !x.Negated {
		if parts := topLevelSplit(x.Expected, "\x00", "if"); len(parts) == 2 {
			if br := topLevelSplit(parts[1], "\x00", "else"); len(br) == 2 && constTruth(br[0]) == -1 && (constTruth(br[1]) == 1 || alwaysTruthy(br[1])) {
				return true
			}
		}
	}
	switch {
	case positive:
		if ds := topLevelSplit(x.Subject, "||", "or"); len(ds) > 1 {
			for _, d := range ds {
				if constTruth(d) == 1 {
					return true
				}
			}
		}
	case negative:
		if ds := topLevelSplit(x.Subject, "&&", "and"); len(ds) > 1 {
			for _, d := range ds {
				if constTruth(d) == -1 {
					return true
				}
			}
		}
	}
	return false
}

// alwaysTruthy reports a condition that is true whatever the code does and
// that no extractor folds to a bare constant: a non-empty list, tuple or
// set literal (`assert [x == 42]`, `assert (x == 42, "msg")`), all() of an
// empty literal, or a conditional expression whose condition is a
// constant and whose chosen branch is (`x == 42 if False else True`).
func alwaysTruthy(e string) bool {
	e = strings.TrimSpace(e)
	if e == "all([])" || e == "all(())" || e == "all({})" || e == "all(set())" {
		return true
	}
	if (strings.HasPrefix(e, "[") && strings.HasSuffix(e, "]") || strings.HasPrefix(e, "{") && strings.HasSuffix(e, "}")) && len(strings.TrimSpace(e[1:len(e)-1])) > 0 && balancedOnce(e) {
		return true
	}
	if strings.HasPrefix(e, "(") && strings.HasSuffix(e, ")") && balancedOnce(e) && len(topLevelSplit(e[1:len(e)-1], ",", "\x00")) > 1 {
		return true // a tuple
	}
	// x if C else y
	if parts := topLevelSplit(e, "\x00", "if"); len(parts) == 2 {
		if branches := topLevelSplit(parts[1], "\x00", "else"); len(branches) == 2 {
			switch constTruth(branches[0]) {
			case 1:
				return constTruth(parts[0]) == 1 || alwaysTruthy(parts[0])
			case -1:
				return constTruth(branches[1]) == 1 || alwaysTruthy(branches[1])
			}
		}
	}
	return false
}

// balancedOnce reports whether the bracket opening e closes at its end.
func balancedOnce(e string) bool {
	b := blankStrings(e)
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 && i != len(b)-1 {
				return false
			}
		}
	}
	return depth == 0
}

// blankStrings returns e with each string literal ("..", '..', `..`, an
// escaped quote kept inside), its quotes included, replaced by as many
// spaces: what is left is the code around them, at the same offsets.
func blankStrings(e string) string {
	if !strings.ContainsAny(e, "\"'`") {
		return e
	}
	b := []byte(e)
	literalSpans(e, func(start, end int) {
		for k := start; k <= end && k < len(b); k++ {
			b[k] = ' '
		}
	})
	return string(b)
}

// literalSpans calls fn with where each string literal of a normalized
// expression starts (its opening quote: ", ' or `) and ends (its closing
// quote, len(e) when it is not closed), a backslash escaping the next byte.
// It is the one walk over literals the readers of expressions share.
func literalSpans(e string, fn func(start, end int)) {
	for i := 0; i < len(e); i++ {
		q := e[i]
		if q != '"' && q != '\'' && q != '`' {
			continue
		}
		j := i + 1
		for j < len(e) && e[j] != q {
			if e[j] == '\\' {
				j++
			}
			j++
		}
		fn(i, min(j, len(e)))
		i = j
	}
}

// topLevelSplit splits a normalized expression at the operator op (or the
// word operator word) outside brackets and string literals; the whole
// expression when it has none.
func topLevelSplit(expr, op, word string) []string {
	var out []string
	depth, start := 0, 0
	code := blankStrings(expr) // the same offsets, string literals blanked
	for i := 0; i < len(code); i++ {
		c := code[i]
		switch {
		case c == '(' || c == '[' || c == '{':
			depth++
			continue
		case c == ')' || c == ']' || c == '}':
			depth--
			continue
		}
		if depth != 0 {
			continue
		}
		if strings.HasPrefix(code[i:], op) {
			out = append(out, expr[start:i])
			i += len(op) - 1
			start = i + 1
			continue
		}
		if strings.HasPrefix(code[i:], word) && (i == 0 || !isWordByte(code[i-1])) && (i+len(word) == len(code) || !isWordByte(code[i+len(word)])) {
			out = append(out, expr[start:i])
			i += len(word) - 1
			start = i + 1
		}
	}
	return append(out, expr[start:])
}

// constTruth is 1 for a constant that is always true (True, true, a
// non-zero number, a non-empty string, !false, not None), -1 for one that
// is always false, 0 for anything else.
func constTruth(e string) int {
	e = strings.TrimSpace(e)
	for strings.HasPrefix(e, "(") && strings.HasSuffix(e, ")") {
		e = strings.TrimSpace(e[1 : len(e)-1])
	}
	for _, not := range []string{"!", "not "} {
		if strings.HasPrefix(e, not) {
			return -constTruth(e[len(not):])
		}
	}
	switch e {
	case "True", "true":
		return 1
	case "False", "false", "None", "null", "undefined", "nil", "0", "0.0", `""`, "''":
		return -1
	}
	if len(e) >= 3 && (e[0] == '"' || e[0] == '\'') && e[len(e)-1] == e[0] {
		return 1
	}
	if n, err := strconv.ParseFloat(e, 64); err == nil && n != 0 {
		return 1
	}
	return 0
}

// parse reads one file version, or takes what was read of it before: known
// (the caller's, see Parsed) or the cache's.
func (a *Analyzer) parse(p, key string, data []byte, fragment bool, known *Parsed) *side {
	s := &side{path: p}
	s.ext = scanners.ForPath(p)
	if s.ext == nil {
		return s
	}
	s.isTest = s.ext.IsTestFile(p)
	s.outOfReach = notCollected(s.ext.Lang(), p)
	ck := ""
	// A masked version (key "old~new", see maskPair) serves its one change
	// only: caching it would keep every masked parse of a range alive.
	if key != "" && !strings.Contains(key, "~") {
		ck = string(s.ext.Lang()) + ":" + p + ":" + key
		if known == nil {
			a.mu.Lock()
			known = a.cache.get(ck)
			a.mu.Unlock()
		}
	}
	if known != nil {
		s.facts, s.failed = known.facts, known.failed
		return s
	}
	f, err := s.ext.Extract(p, data)
	s.record(a, f, err, fragment)
	if ck != "" {
		a.mu.Lock()
		a.cache.put(ck, &Parsed{facts: s.facts, failed: s.failed, size: len(data)})
		a.mu.Unlock()
	}
	return s
}

func errString(err error) string {
	if err == nil {
		return "no result"
	}
	return err.Error()
}

// Sort orders findings: net before transient, then by severity (highest first),
// file, line, type and id.
func Sort(fs []gate.Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Net != b.Net {
			return a.Net
		}
		if a.Severity != b.Severity {
			return a.Severity > b.Severity
		}
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Type != b.Type {
			return a.Type < b.Type
		}
		return a.ID < b.ID
	})
}

func dir(p string) string { return path.Dir(p) }

func quoteList(names []string, max int) string {
	if len(names) <= max {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:max], ", ") + ", ..."
}

// Parsed returns what the analyzer read of a file version before, or nil
// when Analyze needs the version's contents: it has not read it (or no
// longer holds it), or the file is one whose lines the configuration rules
// read. A caller that gets it can skip reading the blob and pass it in the
// FileChange or Source instead, which matters for the net change of a long
// range, whose versions the per-commit analyses have read.
func (a *Analyzer) Parsed(p, key string) *Parsed {
	if key == "" || p == config.FileName || ci.Classify(p) != ci.NotConfig {
		return nil
	}
	ext := scanners.ForPath(p)
	if ext == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.cache.get(string(ext.Lang()) + ":" + p + ":" + key)
}

// ParsedPair is Parsed for both versions of a modified file. When the
// analyzer masks (MaskUnchanged) and has read one version but not the
// other, it needs both: masking both costs less than parsing the new one
// whole, and parsing it whole would leave the next commit's change of the
// file with the same choice (on prometheus's last 200 commits a single whole
// parse of tsdb/db_test.go turned every later change of it into whole parses
// of 400 KB).
func (a *Analyzer) ParsedPair(oldPath, oldKey, newPath, newKey string) (old, new *Parsed) {
	old, new = a.Parsed(oldPath, oldKey), a.Parsed(newPath, newKey)
	if a.mask && (old == nil) != (new == nil) {
		return nil, nil
	}
	return old, new
}

// Wants reports whether the analyzer looks at a file's contents: a source file of
// a supported language, a file of the checking machinery, or the gate's own
// configuration. Callers need not read the contents of other files.
func Wants(p string) bool {
	return p == config.FileName || ci.Classify(p) != ci.NotConfig || scanners.ForPath(p) != nil || path.Base(p) == "go.mod"
}
