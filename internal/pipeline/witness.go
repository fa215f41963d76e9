package pipeline

import (
	"bytes"
	"fmt"
	"go/scanner"
	"go/token"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"golang.org/x/mod/modfile"

	"github.com/ralph-gate/ralph-gate/collectors"
	"github.com/ralph-gate/ralph-gate/internal/analyze"
	"github.com/ralph-gate/ralph-gate/internal/collect"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scanners"
)

// headTests is HEAD's side of the range's tests and BASE's side of its
// code: HEAD's test files and test support the range added or modified,
// the test files among them a collector runs, and BASE's versions of the
// production files it changed. The witness and the tamper check's pin
// grading both read its one run (onBase): HEAD's checkout with BASE's code
// laid back, so that nothing but the code differs from HEAD's own run.
type headTests struct {
	// overlay is HEAD's test side (what the tests are, for narrowing).
	overlay map[string][]byte
	// baseCode is BASE's production code, laid over HEAD's checkout for the
	// run: the tree is BASE's code with HEAD's tests, and git in it shows
	// HEAD's commit, clean, as in HEAD's own measurement.
	baseCode map[string][]byte
	// files are the added or modified test files, by HEAD's path.
	files []string
	// changes are the diff entries of files, by HEAD's path.
	changes map[string]gitrepo.Change
	// production are the production source files the range changed in
	// code (not only in comments or layout), by path.
	production []string
	// statics are the test files' extracted tests (changedStatics).
	statics map[string]*staticTests

	ran  bool
	plan *tamperPlan
	m    *collect.Measurement
	why  string // what kept the run from giving results
}

// testSide reports whether a changed path belongs with the tests: a test
// file by its language's conventions, or a file under a directory only tests
// read (testdata, fixtures, snapshots, test helpers). HEAD's versions of
// these run against BASE's code; everything else is the code under test.
func testSide(p string) bool {
	if x := scanners.ForPath(p); x != nil && x.IsTestFile(p) {
		return true
	}
	if strings.HasSuffix(p, ".snap") {
		return true
	}
	for _, seg := range strings.Split(path.Dir(p), "/") {
		switch strings.ToLower(seg) {
		case "testdata", "fixtures", "__fixtures__", "__snapshots__", "__mocks__", "test", "tests", "__tests__",
			"spec", "testutil", "testutils", "testhelpers", "testhelper", "testing":
			return true
		}
	}
	return false
}

// loadHeadTests reads the range's test side and production changes, once.
func (c *comparison) loadHeadTests() (*headTests, error) {
	if c.headTests != nil {
		return c.headTests, nil
	}
	opt := c.p.opt
	diff, err := c.rangeDiff()
	if err != nil {
		return nil, err
	}
	h := &headTests{overlay: map[string][]byte{}, baseCode: map[string][]byte{}, changes: map[string]gitrepo.Change{}}
	for _, d := range diff {
		p := d.Path()
		if d.To.Mode == filemode.Submodule || d.From.Mode == filemode.Submodule {
			continue
		}
		if !testSide(p) && (d.From.Path == "" || !testSide(d.From.Path)) {
			if err := c.layBaseCode(d, h.baseCode); err != nil {
				return nil, err
			}
			if !opt.Config.Ignored(p) && scanners.ForPath(p) != nil && c.codeChanged(d, h.baseCode[d.From.Path]) {
				h.production = append(h.production, p)
			}
			continue
		}
		if opt.Config.Ignored(p) {
			continue
		}
		if d.To.Path == "" || d.To.Mode == filemode.Symlink {
			continue // a deleted test runs nowhere at HEAD
		}
		b, err := opt.Repo.Blob(d.To.Hash)
		if err != nil {
			return nil, fmt.Errorf("HEAD's %s: %w", d.To.Path, err)
		}
		h.overlay[d.To.Path] = b
		if d.From.Path != "" && d.From.Path != d.To.Path {
			h.overlay[d.From.Path] = nil
		}
		if x := scanners.ForPath(d.To.Path); x != nil && x.IsTestFile(d.To.Path) {
			h.files = append(h.files, d.To.Path)
			h.changes[d.To.Path] = d
		}
	}
	sort.Strings(h.files)
	sort.Strings(h.production)
	c.headTests = h
	return h, nil
}

// layBaseCode puts BASE's version of a production file the range changed
// into code, laid over HEAD's checkout: the file as BASE has it, a file the
// range added removed, a renamed one back at its old path. A symbolic link
// is left as HEAD has it (a note says so): its target is not file content.
func (c *comparison) layBaseCode(d gitrepo.Change, code map[string][]byte) error {
	if d.From.Mode == filemode.Symlink || d.To.Mode == filemode.Symlink {
		c.note(d.Path(), "witness: a symbolic link among the changed production files stays as HEAD has it")
		return nil
	}
	if d.To.Path != "" && d.To.Path != d.From.Path {
		code[d.To.Path] = nil
	}
	if d.From.Path == "" {
		return nil
	}
	b, err := c.p.opt.Repo.Blob(d.From.Hash)
	if err != nil {
		return fmt.Errorf("BASE's %s: %w", d.From.Path, err)
	}
	code[d.From.Path] = b
	return nil
}

// codeChanged reports whether a change of a source file changed its code: a
// Go file whose tokens are the same but for comments and layout did not.
// Other languages count any change.
// old is BASE's content, as layBaseCode read it (nil: not read).
func (c *comparison) codeChanged(d gitrepo.Change, old []byte) bool {
	if d.From.Path == "" || d.To.Path == "" || old == nil || !strings.HasSuffix(d.To.Path, ".go") {
		return true
	}
	b, err := c.p.opt.Repo.Blob(d.To.Hash)
	if err != nil {
		return true
	}
	return !bytes.Equal(goCodeTokens(old), goCodeTokens(b))
}

// goCodeTokens is src's tokens without comments and semicolons (which
// the scanner inserts at line ends), one per line.
func goCodeTokens(src []byte) []byte {
	var s scanner.Scanner
	fs := token.NewFileSet()
	s.Init(fs.AddFile("", -1, len(src)), src, nil, 0)
	var out []byte
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if tok == token.SEMICOLON {
			continue // inserted at line ends: layout
		}
		out = append(out, tok.String()...)
		out = append(out, ' ')
		out = append(out, lit...)
		out = append(out, '\n')
	}
}

// onBase runs HEAD's test files (with HEAD's test support) against BASE's
// code, once per comparison; why says what kept it from giving results.
func (h *headTests) onBase(c *comparison) (*collect.Measurement, string) {
	if h.ran {
		return h.m, h.why
	}
	h.ran = true
	opt := c.p.opt
	specs, err := c.collectorSpecs()
	if err != nil {
		h.why = "the collectors could not be read: " + firstLine(err.Error())
		return nil, h.why
	}
	h.plan = planTamper(specs, h.files, h.overlay, c.wholeGoPackages(h))
	if len(h.plan.files) == 0 {
		h.why = "no collector runs HEAD's new or edited tests (" + strings.Join(h.files, ", ") + ")"
		return nil, h.why
	}
	m, _, err := collect.MeasureOverlay(c.ctx, opt.Repo, opt.RepoDir, c.head, h.baseCode, h.plan.specs, opt.Cache, c.runOptions("witness"))
	switch {
	case err != nil:
		h.why = "the run failed: " + firstLine(err.Error())
	case m.Result == nil || m.Result.Tests == nil:
		h.why = "the run reported no test results"
	default:
		h.m = m
	}
	return h.m, h.why
}

// wholeGoPackages are the changed Go test files whose package has tests
// HEAD's run added that no changed file declares (a table row in a helper,
// a case from a new testdata file): each maps to its directory, which the
// run on BASE's code tests whole instead of by the changed files' names.
func (c *comparison) wholeGoPackages(h *headTests) map[string][]string {
	baseM, headM := c.baseM, c.headM
	if baseM == nil || headM == nil || baseM.Result == nil || headM.Result == nil || baseM.Result.Tests == nil || headM.Result.Tests == nil {
		return nil
	}
	statics := c.changedStatics(h)
	mod := c.goModule()
	var out map[string][]string
	for t := range headM.Result.Tests.All() {
		if _, ok := baseM.Result.Tests.Get(t.ID); ok {
			continue
		}
		if f, st, exact := testFileOf(t, h.files, statics, mod); st != nil && !exact {
			for _, g := range h.files {
				if strings.HasSuffix(g, "_test.go") && path.Dir(g) == path.Dir(f) && out[g] == nil {
					if out == nil {
						out = map[string][]string{}
					}
					out[g] = []string{path.Dir(g)}
				}
			}
		}
	}
	return out
}

// witness is the fail-to-pass witness: HEAD's versions of the tests the
// range added or edited, run against BASE's production code. Each test HEAD
// passes is witnessed (BASE's code fails it, or it does not build there),
// not witnessing (BASE's code passes it too: it does not exercise the
// change) or unmeasured; one HEAD fails is broken. A range that changes
// production code and whose new and edited tests witness nothing is an
// unwitnessed-change finding: no test pins the change. A range that adds or
// edits no test gets none (what its changed lines' coverage says is
// changed-line coverage's to tell).
func (c *comparison) witness(baseM, headM *collect.Measurement) ([]gate.Finding, gate.Witness, error) {
	opt := c.p.opt
	h, err := c.loadHeadTests()
	if err != nil {
		return nil, gate.Witness{}, err
	}
	status := gate.Witness{Files: h.files}
	switch {
	case len(h.production) == 0:
		status.Reason = "the range changes no production code"
		return nil, status, nil
	case opt.NoWitness:
		status.Reason = "switched off by --no-witness"
		return nil, status, nil
	case !opt.Config.Compare.WitnessOn():
		status.Reason = "switched off by compare.witness: off in the configuration"
		return nil, status, nil
	case opt.Collect == "none":
		status.Reason = "collect is none: the witness runs tests, and nothing may run"
		return nil, status, nil
	}
	var changed []*witnessed
	if len(h.files) > 0 {
		changed = headChangedTests(baseM, headM, h, c.changedStatics(h), c.goModule())
	}
	// A test the range left as it was that failed at BASE and passes at
	// HEAD witnesses the change too (a loop's failing test, fixed).
	fixed := fixedTests(baseM, headM, changed)
	if len(h.files) == 0 {
		status.Reason = "the range adds or edits no test file"
		status.Tests = fixed
		return nil, status, nil
	}
	if len(changed) == 0 {
		status.Reason = "HEAD's run reports none of the tests the range added or edited"
		status.Tests = fixed
		return nil, status, nil
	}
	m, why := h.onBase(c)
	if h.plan != nil {
		status.Files, status.Collectors = h.plan.files, h.plan.names()
		if len(h.plan.uncovered) > 0 {
			status.Reason = "not covered: " + strings.Join(h.plan.uncovered, ", ")
		}
	}
	if m == nil {
		status.Reason = why
		for _, t := range changed {
			if t.Witness == "" {
				t.Witness, t.Detail = gate.WitnessUnmeasured, why
			}
			status.Tests = append(status.Tests, t.WitnessTest)
		}
		status.Tests = append(status.Tests, fixed...)
		if status.Witnessed() {
			return nil, status, nil
		}
		return []gate.Finding{c.unwitnessed(h, status.Tests, anyAdded(changed), why)}, status, nil
	}
	status.Ran = true
	for _, t := range changed {
		if t.Witness == "" {
			t.Witness, t.Detail = judgeOnBase(t.id, t.File, m.Result)
		}
		status.Tests = append(status.Tests, t.WitnessTest)
	}
	status.Tests = append(status.Tests, fixed...)
	sort.Slice(status.Tests, func(i, j int) bool { return status.Tests[i].Test < status.Tests[j].Test })
	if status.Witnessed() {
		return nil, status, nil
	}
	for _, t := range status.Tests {
		if t.Witness != gate.WitnessBroken {
			return []gate.Finding{c.unwitnessed(h, status.Tests, anyAdded(changed), "")}, status, nil
		}
	}
	return nil, status, nil // every new test fails at HEAD: the test regression says so
}

// unwitnessed is the finding for a production change no new or edited test
// pins; why says what kept the witness from running.
//
// A range whose tests are all edited ones, none new, is low: tests edited
// alongside a refactor of the code (a type spelled anew in both) pass on
// either side by design, and a fix is pinned by a new test or by an edited
// expectation, which fails on BASE's code.
func (c *comparison) unwitnessed(h *headTests, tests []gate.WitnessTest, added bool, why string) gate.Finding {
	sev := gate.SeverityMedium
	if s := c.p.opt.Config.Compare.WitnessSeverity; s != nil {
		sev = *s
	}
	if !added && why == "" {
		sev = min(sev, gate.SeverityLow)
	}
	var passing, unmeasured []string
	for _, t := range tests {
		switch t.Witness {
		case gate.NotWitnessing:
			passing = append(passing, t.Test)
		case gate.WitnessUnmeasured:
			unmeasured = append(unmeasured, t.Test)
		}
	}
	code := clipText(strings.Join(h.production, ", "), 160)
	var msg string
	switch {
	case why != "":
		msg = fmt.Sprintf("the range changes production code (%s), and whether its new or edited tests fail without the change could not be checked: %s", code, why)
	case len(unmeasured) > 0:
		msg = fmt.Sprintf("the range changes production code (%s), but none of its new or edited tests is shown to fail without the change: %s pass on BASE's code, and the run there reported nothing for %s",
			code, orText(clipText(strings.Join(passing, ", "), 200), "none"), clipText(strings.Join(unmeasured, ", "), 200))
	default:
		msg = fmt.Sprintf("the range changes production code (%s), but its new and edited tests pass on BASE's code as well (%s): they do not exercise the change, so no test pins it",
			code, clipText(strings.Join(passing, ", "), 200))
	}
	file := ""
	if len(h.production) > 0 {
		file = h.production[0]
	}
	return gate.Finding{
		ID:       gate.MakeID(gate.RuleUnwitnessedChange.Type, gate.RuleUnwitnessedChange.ID, file, "", ""),
		Type:     gate.RuleUnwitnessedChange.Type,
		Severity: sev,
		File:     file,
		Net:      true,
		Message:  msg + ".",
		Evidence: gate.EvidenceMeasured,
		Rule:     gate.RuleUnwitnessedChange.ID,
	}
}

// fixedTests are the tests HEAD passes that failed at BASE, other than the
// range's new and edited ones: each witnesses the change with no run.
func fixedTests(baseM, headM *collect.Measurement, changed []*witnessed) []gate.WitnessTest {
	if baseM == nil || baseM.Result == nil || baseM.Result.Tests == nil || headM.Result == nil || headM.Result.Tests == nil {
		return nil
	}
	mine := map[string]bool{}
	for _, t := range changed {
		mine[t.id] = true
	}
	var out []gate.WitnessTest
	for t := range headM.Result.Tests.All() {
		if t.Outcome != collectors.Passed || mine[t.ID] {
			continue
		}
		if bt, ok := baseM.Result.Tests.Get(t.ID); ok && (bt.Outcome == collectors.Failed || bt.Outcome == collectors.Errored) {
			out = append(out, gate.WitnessTest{Test: t.ID, File: t.File, Witness: gate.Witnessed, Detail: "failed at BASE, passes at HEAD, unchanged"})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Test < out[j].Test })
	return out
}

func anyAdded(ts []*witnessed) bool {
	for _, t := range ts {
		if t.added {
			return true
		}
	}
	return false
}

// judgeOnBase says what BASE's code made of a test HEAD passes.
func judgeOnBase(id, file string, r *collectors.Result) (string, string) {
	if t, ok := r.Tests.Get(id); ok {
		switch t.Outcome {
		case collectors.Failed, collectors.Errored:
			return gate.Witnessed, clipText(analyze.FailureLines(t.Message, 3), 300)
		case collectors.Skipped:
			return gate.NotWitnessing, "skipped on BASE's code"
		default:
			return gate.NotWitnessing, ""
		}
	}
	// Not reported: a test it is part of failed before reaching it (a
	// panic in a table test), its package does not build against BASE's
	// code (it uses what the change added), or its file does not load there.
	for p := parentTest(id); p != ""; p = parentTest(p) {
		if t, ok := r.Tests.Get(p); ok && (t.Outcome == collectors.Failed || t.Outcome == collectors.Errored) {
			return gate.Witnessed, "not reached: " + p + " failed on BASE's code: " + clipText(orText(analyze.FailureLines(t.Message, 3), "no message"), 240)
		}
	}
	for _, b := range r.BuildFailures {
		if b.Package != "" && (strings.HasPrefix(id, b.Package+".") || b.Package == file || b.Package == path.Dir(file)) {
			return gate.Witnessed, "does not build against BASE's code: " + clipText(orText(buildError(b.Output), "no compiler output"), 240)
		}
	}
	for t := range r.Tests.All() {
		if (t.Outcome == collectors.Failed || t.Outcome == collectors.Errored) && t.ID != id && fileLevel(t, file) {
			return gate.Witnessed, "its file does not load against BASE's code: " + clipText(orText(analyze.FailureLines(t.Message, 3), "no message"), 240)
		}
	}
	return gate.WitnessUnmeasured, "BASE's run reported nothing for it"
}

// fileLevel reports whether a failed entry stands for a whole test file (a
// pytest collection error, a JavaScript suite that failed to load): its id
// is the file itself, as a path or a dotted module.
func fileLevel(t collectors.Test, file string) bool {
	if file == "" {
		return false
	}
	stem := strings.TrimSuffix(file, path.Ext(file))
	for _, s := range []string{file, stem, strings.ReplaceAll(stem, "/", ".")} {
		if t.ID == s || strings.HasSuffix(t.ID, "/"+s) || strings.HasSuffix(t.ID, "."+s) {
			return true
		}
	}
	return t.File == file && (t.Name == "" || t.Name == file || t.Name == path.Base(file))
}

// staticTests are one added or modified test file's tests as its language's
// extractor reads them at HEAD, and which of them the range added or edited.
type staticTests struct {
	ids     []string
	changed map[string]bool
	// whole: the file is new, or a version did not parse: every test of it
	// counts as added or edited.
	whole bool
}

func (c *comparison) changedStatics(h *headTests) map[string]*staticTests {
	if h.statics != nil {
		return h.statics
	}
	out := map[string]*staticTests{}
	h.statics = out
	for _, f := range h.files {
		d := h.changes[f]
		x := scanners.ForPath(f)
		st := &staticTests{changed: map[string]bool{}}
		out[f] = st
		nf, err := x.Extract(f, h.overlay[f])
		if err != nil || nf.Partial {
			st.whole = true
			continue
		}
		for _, tc := range nf.Tests {
			st.ids = append(st.ids, tc.ID)
		}
		if d.From.Path == "" {
			st.whole = true
			continue
		}
		old, err := c.p.opt.Repo.Blob(d.From.Hash)
		if err != nil {
			st.whole = true
			continue
		}
		of, err := x.Extract(d.From.Path, old)
		if err != nil || of.Partial {
			st.whole = true
			continue
		}
		before := map[string]string{}
		for _, tc := range of.Tests {
			before[tc.ID] = checksOf(tc)
		}
		for _, tc := range nf.Tests {
			if sig, ok := before[tc.ID]; !ok || sig != checksOf(tc) {
				st.changed[tc.ID] = true
			}
		}
	}
	return out
}

// checksOf is what a test checks: its assertions and its literals (inputs
// and expected values). A test whose code changed around the same checks
// (a type spelled anew, a helper renamed: a refactor the range applied to
// tests and code alike) is not a test of the change.
func checksOf(tc testscan.TestCase) string {
	var b strings.Builder
	for _, a := range tc.Assertions {
		fmt.Fprintf(&b, "%s|%v|%s|%s|%s\n", a.Kind, a.Negated, a.Subject, a.Expected, a.Tolerance)
	}
	b.WriteString("--\n")
	for _, l := range tc.Literals {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// goModule is the module path of BASE's or HEAD's go.mod, or "".
func (c *comparison) goModule() string {
	if c.goMod != nil {
		return *c.goMod
	}
	mod := ""
	for _, at := range []plumbing.Hash{c.head, c.base} {
		if b, err := c.p.opt.Repo.ReadFile(at, "go.mod"); err == nil {
			mod = modfile.ModulePath(b)
			break
		}
	}
	c.goMod = &mod
	return mod
}

type witnessed struct {
	gate.WitnessTest
	id string
	// added: BASE's run did not have it (a new test, not an edited one).
	added bool
}

// headChangedTests are the tests of HEAD's run that the range added or
// edited, each with its file; a test HEAD fails is already judged broken.
// Added are the ids the extractor reads as new or with other checks, and
// the ids HEAD's run has and BASE's does not, in a file or Go package of a
// changed test file (a table row added in a helper, a case a new testdata
// file makes).
func headChangedTests(baseM, headM *collect.Measurement, h *headTests, statics map[string]*staticTests, mod string) []*witnessed {
	if headM == nil || headM.Result == nil || headM.Result.Tests == nil {
		return nil
	}
	var out []*witnessed
	for t := range headM.Result.Tests.All() {
		if t.Outcome == collectors.Skipped {
			continue
		}
		file, st, exact := testFileOf(t, h.files, statics, mod)
		if st == nil {
			continue
		}
		isNew := false
		if baseM != nil && baseM.Result != nil && baseM.Result.Tests != nil {
			_, inBase := baseM.Result.Tests.Get(t.ID)
			isNew = !inBase
		}
		if !isNew && !(exact && (st.whole || matchesAny(t.ID, st.changed))) {
			continue
		}
		if !exact {
			file = "" // a file of its package, not its own
		}
		w := &witnessed{WitnessTest: gate.WitnessTest{Test: t.ID, File: file}, id: t.ID, added: isNew}
		if t.Outcome != collectors.Passed {
			w.Witness, w.Detail = gate.WitnessBroken, clipText(analyze.FailureLines(t.Message, 3), 300)
		}
		out = append(out, w)
	}
	return out
}

// testFileOf finds which of the range's test files a measured test is
// from: the file its report names, else the one whose path its id names (a
// Go package's directory, a dotted Python module) and that declares it.
//
// exact is false for a Go test found only by its package: one of the
// package's changed test files, none of which declares it.
func testFileOf(t collectors.Test, files []string, statics map[string]*staticTests, mod string) (string, *staticTests, bool) {
	if t.File != "" {
		if st, ok := statics[t.File]; ok {
			return t.File, st, true
		}
		return "", nil, false
	}
	goPkg, goName, isGo := splitGoTestID(t.ID)
	var pkgFile string
	for _, f := range files {
		st := statics[f]
		if isGo && strings.HasSuffix(f, "_test.go") {
			dir := path.Dir(f)
			want := mod
			if dir != "." {
				want = mod + "/" + dir
			}
			if mod == "" || goPkg != want {
				continue
			}
			if st.whole && len(st.ids) == 0 || declares(st.ids, goName) {
				return f, st, true
			}
			if pkgFile == "" {
				pkgFile = f
			}
			continue
		}
		stem := strings.TrimSuffix(f, path.Ext(f))
		if (strings.Contains(t.ID, stem) || strings.Contains(t.ID, strings.ReplaceAll(stem, "/", "."))) && (matchesAny(t.ID, toSet(st.ids)) || st.whole && len(st.ids) == 0) {
			return f, st, true
		}
	}
	if pkgFile != "" {
		return pkgFile, statics[pkgFile], false
	}
	return "", nil, false
}

// declares reports whether a Go test function is among extracted ids:
// itself, or a subtest of it ("TestArgUsage/default": a table test whose
// rows are the cases).
func declares(ids []string, fn string) bool {
	for _, id := range ids {
		if top, _, _ := strings.Cut(id, "/"); top == fn {
			return true
		}
	}
	return false
}

func toSet(ids []string) map[string]bool {
	out := make(map[string]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out
}

// matchesAny reports whether a measured test id is one of the extracted
// test ids, or a subtest or parametrized case of one: "pkg.TestMul/neg"
// is TestMul's, "tests/test_calc.py::test_div[0-1]" is test_div's, "calc >
// mul > handles zero" is "mul > handles zero"'s.
func matchesAny(id string, ids map[string]bool) bool {
	if len(ids) == 0 {
		return false
	}
	if i := strings.IndexByte(id, '['); i > 0 && strings.HasSuffix(id, "]") {
		id = id[:i]
	}
	for cur := id; cur != ""; cur = parentTest(cur) {
		for s := range ids {
			// Python's "TestCalc::test_div" is "TestCalc.test_div" in JUnit;
			// a parametrized case's parameters are left out on both sides.
			s = strings.TrimSuffix(strings.TrimSuffix(s, "*"), "/")
			if i := strings.IndexByte(s, '['); i > 0 && strings.HasSuffix(s, "]") {
				s = s[:i]
			}
			if s != "" && (boundarySuffix(cur, s) || boundarySuffix(cur, strings.ReplaceAll(s, "::", "."))) {
				return true
			}
		}
	}
	return false
}

// parentTest is a test id's enclosing test ("" at the top).
func parentTest(id string) string {
	i := strings.LastIndex(id, "/")
	if j := strings.LastIndex(id, " > "); j > i {
		return id[:j]
	}
	if i < 0 {
		return ""
	}
	return id[:i]
}

// boundarySuffix reports whether id is s, or ends in s after a separator
// runners put between a test's scope and its name.
func boundarySuffix(id, s string) bool {
	if id == s {
		return true
	}
	if !strings.HasSuffix(id, s) {
		return false
	}
	pre := id[:len(id)-len(s)]
	for _, sep := range []string{".", "::", " > ", "/", "#", " "} {
		if strings.HasSuffix(pre, sep) {
			return true
		}
	}
	return false
}
