package python

import (
	"path"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// Extractor reads Python source files (.py, and .pyi stubs for their API).
type Extractor struct{}

var _ testscan.Extractor = (*Extractor)(nil)

// New returns a Python extractor. It holds no state and is safe for concurrent
// use.
func New() *Extractor { return &Extractor{} }

// Lang returns testscan.Python.
func (*Extractor) Lang() testscan.Lang { return testscan.Python }

// Handles reports whether p names a Python source or stub file.
func (*Extractor) Handles(p string) bool {
	return strings.HasSuffix(p, ".py") || strings.HasSuffix(p, ".pyi")
}

// IsTestFile reports whether pytest would collect p by default (test_*.py,
// *_test.py), whether it is a conftest.py, or whether it lives under a tests/ or
// test/ directory. Stubs (.pyi) are never test files.
func (*Extractor) IsTestFile(p string) bool {
	if !strings.HasSuffix(p, ".py") {
		return false
	}
	base := path.Base(p)
	if strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py") || base == "conftest.py" {
		return true
	}
	for _, dir := range strings.Split(path.Dir(p), "/") {
		if dir == "tests" || dir == "test" {
			return true
		}
	}
	return false
}

// module is one file being extracted: its tokens, its block tree and the facts
// about the whole file that tests inherit.
type module struct {
	path     string
	isTest   bool
	conftest bool
	stub     bool
	toks     []token
	comments []token
	root     *stmt
	partial  bool
	// topDefs maps the file's top-level class and function names to their
	// statements.
	topDefs map[string]*stmt
	// usesFramework is set when the file imports pytest or unittest, which makes
	// test-named functions in a non-test file real tests.
	usesFramework bool
	moduleSkip    *testscan.Skip
	unittestMemo  map[string]int8
	// testDefs are the defs collected as test functions, whose bodies hold test
	// assertions rather than helper ones.
	testDefs map[*stmt]bool
	// imports are the names the file's import statements bind, other than
	// those of test support modules, read on first use (see importNames).
	imports map[string]bool
	callBuf []testscan.Call // scratch for testCalls and helperCalls
	// uses gathers a test's calls of imported functions while testCalls
	// reads it (TestCase.Uses); nil otherwise.
	uses *[]string
	// detached are the regions of the test testCalls reads that run only
	// on a thread, and offThread gathers the calls made there; nil
	// otherwise.
	detached  []detachedRegion
	offThread *[]testscan.Call
	// autouse is what the module's autouse fixtures patch (see
	// autouseSites), nil until read.
	autouse []patchSite
	shebang bool // the file starts with #!
}

// Extract parses src. It never fails: input that does not parse gives what was
// recovered, with Partial set.
func (e *Extractor) Extract(p string, src []byte) (*testscan.File, error) {
	text := strings.TrimPrefix(string(src), "\ufeff")
	toks, comments, partial := lex(text)
	root, treePartial := buildTree(toks)
	m := &module{
		path:         p,
		isTest:       e.IsTestFile(p),
		conftest:     path.Base(p) == "conftest.py",
		stub:         strings.HasSuffix(p, ".pyi"),
		toks:         toks,
		comments:     comments,
		root:         root,
		partial:      partial || treePartial,
		topDefs:      map[string]*stmt{},
		unittestMemo: map[string]int8{},
		testDefs:     map[*stmt]bool{},
		shebang:      strings.HasPrefix(text, "#!"),
	}
	m.scanModule()
	f := &testscan.File{Lang: testscan.Python}
	if !m.stub {
		f.Tests = m.collectTests()
		f.HelperAssertions, f.Helpers, f.HelperCalls = m.helpers()
	}
	f.Suppressions, f.Placeholders = m.suppressions()
	if !m.isTest && !m.stub {
		var constant []testscan.Marker
		f.FuncNames, constant = m.funcNames()
		f.Placeholders = append(f.Placeholders, constant...)
	}
	f.Bypasses = append(m.bypasses(), m.hookMarkers()...)
	sortMarkers(f.Bypasses)
	if m.conftest {
		if p := m.autousePatched(); len(p) > 0 {
			f.StubbedForAll = p
		}
	}
	f.Exports = m.exports()
	f.Comparisons = m.comparisons()
	f.UnderTest = m.underTest()
	f.Funcs = m.funcs()
	f.Partial = m.partial
	return f, nil
}

// scanModule records the top-level names, framework imports and the skips that
// apply to the whole module.
func (m *module) scanModule() {
	var visitTop func(body []*stmt)
	visitTop = func(body []*stmt) {
		for _, s := range body {
			switch {
			case s.isDef() || s.isClass():
				if n := s.defName(); n != "" {
					if _, seen := m.topDefs[n]; !seen {
						m.topDefs[n] = s
					}
				}
			case s.header && (s.tok(0) == "if" || s.tok(0) == "else" || s.tok(0) == "try" || s.tok(0) == "except" || s.tok(0) == "finally"):
				visitTop(s.body)
			}
		}
	}
	visitTop(m.root.body)
	walk(m.root.body, func(s *stmt) bool {
		if w := s.tok(0); w == "import" || w == "from" {
			for _, t := range s.toks {
				if t.kind == tkName && (t.text == "pytest" || t.text == "unittest" || strings.HasSuffix(t.text, "TestCase")) {
					m.usesFramework = true
				}
			}
		}
		return !s.isDef()
	})
	m.moduleSkip = m.blockSkip(m.root.body, true)
}
