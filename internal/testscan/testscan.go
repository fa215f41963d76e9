// Package testscan defines what the per-language test extractors produce: the test
// cases of one source file (stable ids, line ranges, skip state, assertions) and the
// other facts the analyzer compares between two versions of a file (suppression
// markers, exported symbols, literal comparisons in production code).
//
// Each language lives in its own sub-package and implements Extractor. Extractors
// parse; they never match lines with regular expressions, so strings, comments,
// template literals and regex literals cannot fool them. They are tolerant: a file
// that does not parse (a fragment read from a patch, or a syntax error) still yields
// what could be recovered, with File.Partial set.
package testscan

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Lang names a language family.
type Lang string

// The supported languages. JavaScript covers TypeScript, JSX and TSX.
const (
	Go         Lang = "go"
	JavaScript Lang = "javascript"
	Python     Lang = "python"
	Java       Lang = "java"
	Rust       Lang = "rust"
)

// Extractor reads one source file of its language.
type Extractor interface {
	// Lang is the language this extractor reads.
	Lang() Lang
	// Handles reports whether the path (slash-separated, repository-relative) is a
	// source file of this language, judged by its name only.
	Handles(path string) bool
	// IsTestFile reports whether the path is a test file by the language's naming
	// conventions (foo_test.go, foo.test.ts, __tests__/x.js, test_foo.py,
	// FooTest.java, tests/x.rs). Test cases found in other files still count.
	IsTestFile(path string) bool
	// Extract parses src. It never panics and returns an error only when src cannot
	// be read at all; syntax errors give a File with Partial set.
	Extract(path string, src []byte) (*File, error)
}

// Namer is implemented by extractors that list the identifiers code uses
// in src (the file at path p), read with the language's lexer (never in
// strings or comments), in source order: a name as written, and ".name"
// too for one read as a member (x.name). The analyzer reads the names on a
// deleted test's lines (NamesIn) to tell a test deleted with the code it
// tested; one listing serves every test of the file.
type Namer interface {
	Names(p string, src []byte) []Name
}

// Name is an identifier on a line of code (see Namer).
type Name struct {
	Line int
	Text string
}

// Masker is implemented by extractors that can blank what two versions of a
// file share, so that a change's analysis parses only what it touched.
// MaskUnchanged returns both versions with the shared parts blanked, or
// ok=false to extract the whole versions, which it does when it would blank
// fewer than minBlank bytes. ExtractMasked extracts a masked version, on the
// original's lines; it must find exactly what extracting the whole versions
// finds in the parts that differ.
type Masker interface {
	MaskUnchanged(oldPath string, old []byte, newPath string, new []byte, minBlank int) (maskedOld, maskedNew Masked, ok bool)
	ExtractMasked(path string, m Masked) (*File, error)
}

// HelperNarrower is implemented by extractors (Maskers) that can blank, in
// a test file, every function but those a helper name may stand for, so
// that a helper looked up in a file parsed masked is read without the whole
// file. KeepHelper returns the narrowed version, or ok=false when it cannot
// tell the functions apart. Extracting it (ExtractMasked) must find, for the
// helpers the name stands for, exactly what extracting src finds
// (HelperAssertions and HelperCalls).
type HelperNarrower interface {
	KeepHelper(path string, src []byte, name string) (narrowed Masked, ok bool)
}

// Masked is a file version with parts blanked by a Masker: what is left,
// on fewer lines, and how those lines map back to the original's.
type Masked struct {
	Src   []byte
	Lines LineMap
}

// LineMap maps the lines of a masked source to the original's: a line at or
// after a shift's From moves down by the Add of the last such shift. Shifts
// are in order of From; no shift maps a line to itself.
type LineMap []LineShift

// LineShift is one step of a LineMap.
type LineShift struct{ From, Add int }

// Line is the original line of line l (1-based) of the masked source.
func (m LineMap) Line(l int) int {
	lo, hi := 0, len(m)
	for lo < hi {
		mid := (lo + hi) / 2
		if m[mid].From <= l {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo == 0 {
		return l
	}
	return l + m[lo-1].Add
}

// File is what an extractor found in one source file.
type File struct {
	Lang Lang
	// Tests are the test cases in source order. Nested groups (describe blocks,
	// Test classes, t.Run parents) are not test cases themselves unless they also
	// assert; their names prefix their children's ids.
	Tests []TestCase
	// Suppressions are markers that silence a checker or swallow an error:
	// @ts-ignore, eslint-disable, //nolint, # noqa, # type: ignore, coverage ignore
	// comments, empty catch blocks, except: pass, `_ = err`.
	Suppressions []Marker
	// Bypasses are statements that defeat the test run itself, such as
	// sys.exit(0) / os._exit(0) in conftest.py or a test hook.
	Bypasses []Marker
	// Placeholders are code that stands in for an implementation (AIWG's
	// LP-019): Kind "not-implemented" for a statement that fails because
	// the code is not written (`panic("not implemented")`, `raise
	// NotImplementedError` outside an abstract method's stub, `throw new
	// Error("TODO")`, `todo!()`, `unimplemented!()`, a Java `throw new
	// UnsupportedOperationException("not implemented")`), Text the statement
	// as written, normalized; Kind "todo-comment" for a comment that starts
	// with TODO, FIXME or XXX, Text the comment's words; Kind
	// "constant-body" for a production function or method whose whole body
	// returns a constant (`return 0`, `return None`, a Rust body
	// `Vec::new()`, a Java `return Optional.empty();`), Text its name as FuncNames names it, Value the body as
	// written: code stubbed out where the function did more before (the
	// analyzer compares), a definition where it is new.
	Placeholders []Marker `json:",omitempty"`
	// FuncNames are the functions and methods the production code of the file
	// declares at its top level and in its classes or impls, with private
	// ones: "total", "Cart.total", a Rust module's "io::read", a Java
	// nested class's "Outer.Inner.get". They tell a function whose body
	// became a constant from one added. The Python, JavaScript, Rust and
	// Java extractors fill it; Go's functions are read from its Exports.
	FuncNames []string `json:",omitempty"`
	// StubbedForAll are the functions this file replaces for every test it
	// applies to (a conftest.py's autouse fixtures that monkeypatch or mock
	// them), by their last name ("src.calc.parse": "parse"). Only the
	// Python extractor fills it.
	StubbedForAll []string `json:",omitempty"`
	// UnderTest are the places production code branches on running under a
	// test (Go's testing.Testing(), flag.Lookup("test.v")): code that
	// behaves one way for its tests and another for its users.
	UnderTest []Marker
	// Funcs are the functions of a file that is not a test file by its
	// name, in source order, with their exits and literal branches (see
	// Func). The Go, Python, JavaScript, Java and Rust extractors fill it.
	Funcs []Func `json:",omitempty"`
	// Constraint is a Go file's build constraint (the //go:build line's
	// expression), "" when it has none.
	Constraint string
	// Exports are the public API names declared in this file (Go exported
	// identifiers, JS/TS exports, Python public top-level defs and classes,
	// Java public types and methods, Rust pub items).
	Exports []Symbol
	// Comparisons are literal values that production code compares against in a
	// condition (`if email == "test@example.com"`, `case 42:`): the raw material for
	// spotting code that special-cases a test's input or expected value.
	Comparisons []Marker
	// HelperAssertions are the assertions in functions of the file that are not
	// test cases themselves (test helpers such as `func checkSum(t *testing.T, ...)`
	// or a module-level `def assert_valid(x)`), in source order. They let the
	// analyzer tell checks moved into a helper from checks deleted.
	HelperAssertions []Assertion
	// Helpers names the helpers the extractor reads (those of Assertion.Helper),
	// whether or not they assert anything now.
	Helpers []string
	// HelperCalls are the functions each helper calls (see TestCase.Calls), by
	// helper name; helpers that call nothing are left out.
	HelperCalls map[string][]Call
	// Imports are the modules the file imports by a relative path, as
	// written ("./support/utils", "../helpers"): where a JavaScript or
	// TypeScript test's helpers live when they are not beside it. Only the
	// JavaScript extractor fills them.
	Imports []string
	// Partial is set when the file did not parse completely and the facts above
	// were recovered from the parts that did.
	Partial bool
}

// TestCase is one test: a function, method, it/test call, or subtest.
type TestCase struct {
	// ID is stable across runs and unique within the file: Go "TestX/sub",
	// JS "describe > it title", Python "TestClass::test_x" or "test_x",
	// Java "FooTest.method", Rust "module::name" (module path within the file).
	ID string
	// Name is the last segment of ID.
	Name string
	// Line and EndLine are the 1-based first and last lines of the test.
	Line, EndLine int
	// Skip is non-nil when the test is skipped, disabled, todo-ed, xfail-ed or
	// guarded so that it does not run (see SkipKind).
	Skip *Skip
	// Only is set for .only/fit/fdescribe: it silences every sibling test.
	Only bool
	// Dynamic is set when the id has a part only known at run time (a subtest
	// named by a variable, a template title, an each/parametrize table that could
	// not be expanded). Dynamic ids end in "*" for the unknown part.
	Dynamic bool
	// Assertions are the checks in the test body in source order, including those
	// in helpers defined inside the body.
	Assertions []Assertion
	// CommentedAssertions counts comments inside the body whose text is itself an
	// assertion (`// expect(x).toBe(1)`, `# assert x == 1`): commented-out checks.
	CommentedAssertions int
	// Fingerprint is a hash of the body's tokens with comments, whitespace and the
	// test's own name removed: two tests with equal fingerprints have the same body,
	// which is how renames and moves are recognized.
	Fingerprint string
	// BodyTokens is the number of significant tokens in the body (0: empty body).
	BodyTokens int
	// Literals are the string and number literals in the body (inputs and expected
	// values), normalized, at most 64 of them.
	Literals []string
	// NameLiteral is the literal a table row is named by, normalized, when
	// the name is a string literal: often the row's input ({"1900/02", 28}).
	// It is kept out of Literals, which a renamed row must keep.
	NameLiteral string `json:",omitempty"`
	// Params are the values a parametrized case runs with, one map per
	// table row from each argument's name to its value as normalized
	// source ("args": `["--on"]`, "default": "True"): a case has its own
	// row, a case whose ids could not be expanded (Dynamic) every row of
	// its table. An argument the test body assigns again is left out: the
	// table does not say what it is. The extractors that read tables fill
	// it (Python's parametrize).
	Params []map[string]string `json:",omitempty"`
	// Marks are the names of the markers a runner selects the test by
	// (pytest's @pytest.mark.NAME on the test or its classes, a module's
	// or class's pytestmark, a case's pytest.param(marks=...)): what a
	// `-m "not NAME"` deselects. Python's extractor fills it.
	Marks []string `json:",omitempty"`
	// Retries is how many times the runner reruns the test when it fails
	// (jest.retryTimes, vitest's and mocha's retries, pytest's flaky
	// reruns, JUnit Pioneer's @RetryingTest); 0 when it does not.
	Retries int `json:",omitempty"`
	// Calls are the functions the test calls that may be helpers of its own
	// code, each once with its number of call sites, in order of first call,
	// at most MaxCalls of them. Calls into imported packages and builtins, and
	// the assertions themselves, are left out; a subtest also has its parents'
	// calls (setup done before t.Run). The analyzer follows them to the
	// helpers' checks, to tell a check moved into a helper from one deleted.
	Calls []Call
	// Detached are the functions the test calls only where the call may
	// never run, off the test's thread with nothing waiting for it (a
	// goroutine nothing waits for, Arm's Detached): left out of Calls, so
	// that the checks of a helper it starts there are not the test's.
	Detached []string `json:",omitempty"`
	// Uses are the functions of imported modules that a test calls, by
	// their dotted name as written (faulthandler.enable, os.path.join),
	// each once, in order of first call, at most MaxCalls of them: the
	// library calls Calls leaves out, which tell what a test exercises
	// when its checks are generic. The Python extractor fills it.
	Uses []string `json:",omitempty"`
	// Mocks are the replacements the test runs with, from its body, its
	// decorators, the fixtures it requests and what its file applies to
	// every test (a module mock, an autouse fixture, a hook's spy), in
	// source order, at most MaxMocks of them. The Python and JavaScript
	// extractors fill it.
	Mocks []Mock `json:",omitempty"`
}

// OnlyDetached returns the names of the calls of detached that calls
// lacks (TestCase.Detached), nil when there are none.
func OnlyDetached(detached, calls []Call) []string {
	var out []string
	for _, c := range detached {
		if !slices.ContainsFunc(calls, func(k Call) bool { return k.Name == c.Name }) && !slices.Contains(out, c.Name) {
			out = append(out, c.Name)
		}
	}
	return out
}

// Referencer is implemented by extractors that can count where a file names
// a function: References returns, for each of names, how many identifier
// tokens of path's source spell it, plus string literals that hold exactly
// it (a fixture or method source named by string); comments do not count.
// The analyzer asks it of a helper the change adds but nothing calls: a
// name referenced only by its own definition is never run.
type Referencer interface {
	References(path string, src []byte, names map[string]bool) map[string]int
}

// MaxMocks bounds TestCase.Mocks.
const MaxMocks = 32

// Mock is a function or module a test replaces: a patch, a monkeypatch, a
// module mock, a spy given an answer, a function set to a mock. The
// analyzer reads them for AIWG's LP-014, Mock Over-Usage: a test that
// mocks the code it checks, or a mock set to answer what a check expects.
type Mock struct {
	Line int
	// Target is what is replaced, normalized as written: "pkg.calc.total"
	// (patch("pkg.calc.total")), "calc.total" (patch.object(calc,
	// "total"), vi.spyOn(calc, 'total')), "../src/calc" for a module mock.
	Target string
	// Name is the replaced function's last name ("total"), "" for a whole
	// module replaced by an automock (vi.mock('../src/calc') without a
	// factory).
	Name string
	// Returns is the normalized literal the replacement answers with
	// (return_value=5, lambda *a: 5, mockReturnValue(5),
	// mockResolvedValue('x'), () => 5), "" when it gives none or the
	// answer is not a literal. None, null and undefined are no answer.
	Returns string `json:",omitempty"`
	// Subject is set when a check of the test reads the replacement's
	// answer: its subject calls the replaced function, directly or through
	// a local the test sets once to that call (a check of how the mock
	// was called does not count). A whole module counts only when it is
	// the test file's own subject (../src/calc in calc.test.ts) and a
	// check calls a function the file imports from it.
	Subject bool `json:",omitempty"`
}

// AddMock appends m to ms unless ms holds MaxMocks already or the same
// replacement (its target, name and answer) on the same line.
func AddMock(ms []Mock, m Mock) []Mock {
	if len(ms) >= MaxMocks || m.Target == "" {
		return ms
	}
	for i := range ms {
		if ms[i].Line == m.Line && ms[i].Target == m.Target && ms[i].Name == m.Name && ms[i].Returns == m.Returns {
			ms[i].Subject = ms[i].Subject || m.Subject
			return ms
		}
	}
	return append(ms, m)
}

// CheckMocks reports the first break of the invariants of the mocks of f's
// tests: at most MaxMocks, each with a target, on a line of the file
// (lines holds how many it has), a name without a dot. Extractors' fuzz
// targets use it.
func (f *File) CheckMocks(lines int) error {
	for _, tc := range f.Tests {
		if len(tc.Mocks) > MaxMocks {
			return fmt.Errorf("%s: %d mocks, more than %d", tc.ID, len(tc.Mocks), MaxMocks)
		}
		for _, m := range tc.Mocks {
			if m.Target == "" || m.Line < 1 || m.Line > lines || strings.ContainsAny(m.Name, ".\n") {
				return fmt.Errorf("%s: bad mock %+v", tc.ID, m)
			}
		}
	}
	return nil
}

// SameFunction reports whether a call of callee (as Callee reads it:
// "calc.total", "total", "self.calc.total") calls the function a mock's
// target replaces ("pkg.calc.total", "calc.total"): the last names are
// equal and, where both are qualified, so are the names before them
// (cache.get is not the db.get a patch of "app.db.get" replaces).
func SameFunction(target, callee string) bool {
	if target == "" || callee == "" {
		return false
	}
	split := func(s string) (qual, name string) {
		k := strings.LastIndexAny(s, ".:")
		if k < 0 {
			return "", s
		}
		q := s[:k]
		return q[strings.LastIndexAny(q, ".:")+1:], s[k+1:]
	}
	tq, tn := split(target)
	cq, cn := split(callee)
	return tn != "" && tn == cn && (tq == "" || cq == "" || tq == cq)
}

// ValueCheck reports whether a check of the kind compares the value its
// subject gives, not how a mock was called (toHaveBeenCalledWith,
// assert_called_once_with, verify): the checks a mock's answer can make
// pass.
func ValueCheck(kind string) bool {
	k := strings.ToLower(kind[strings.LastIndexByte(kind, '.')+1:])
	if strings.Contains(k, "called") || strings.Contains(k, "returned") || strings.HasPrefix(k, "toreturn") || strings.HasPrefix(k, "verify") {
		return false
	}
	for _, p := range []string{"assert_awaited", "assert_not_awaited", "assert_any_call", "assert_any_await", "assert_has_calls", "assert_has_awaits"} {
		if strings.HasPrefix(k, p) {
			return false
		}
	}
	return true
}

// Call is a function a test or helper calls.
type Call struct {
	// Name is "name" for a function, ".name" for a method called on a value
	// (matching the helper "Recv.name").
	Name string
	// Sites is the number of places that call it.
	Sites int
	// Values are, per call site (at most MaxCallValues of them), the
	// values passed, normalized as Assertion.Origin reads a subject: what
	// tells the check a helper makes of its parameter apart from one of
	// another value. The Go extractor fills it.
	Values [][]string `json:",omitempty"`
}

// MaxCallValues bounds Call.Values.
const MaxCallValues = 16

// AddCallValues records a call site of name passing values in calls.
func AddCallValues(calls []Call, name string, values []string) []Call {
	calls = AddCall(calls, name)
	for i := range calls {
		if calls[i].Name == name {
			if len(values) > 0 && len(calls[i].Values) < MaxCallValues {
				calls[i].Values = append(calls[i].Values, values)
			}
			break
		}
	}
	return calls
}

// MaxCalls bounds TestCase.Calls and each helper's calls.
const MaxCalls = 128

// AddCall records a call site of name in calls.
func AddCall(calls []Call, name string) []Call {
	return AddCalls(calls, name, 1)
}

// AddMethodCall records a call site of the method ".name" in calls, without
// building the name again for a method already recorded.
func AddMethodCall(calls []Call, name string) []Call {
	for i := range calls {
		if n := calls[i].Name; len(n) == len(name)+1 && n[0] == '.' && n[1:] == name {
			calls[i].Sites++
			return calls
		}
	}
	return AddCall(calls, "."+name)
}

// CheckCalls reports the first break of the invariants of the calls of f's
// tests and helpers: at most MaxCalls distinct names, each with a site;
// helpers' calls filed under helpers f names. Extractors' tests and fuzz
// targets use it.
func (f *File) CheckCalls() error {
	check := func(owner string, calls []Call) error {
		if len(calls) > MaxCalls {
			return fmt.Errorf("%s: %d calls, more than %d", owner, len(calls), MaxCalls)
		}
		seen := make(map[string]bool, len(calls))
		for _, c := range calls {
			if c.Name == "" || c.Name == "." || c.Sites < 1 || seen[c.Name] {
				return fmt.Errorf("%s: bad or repeated call %+v", owner, c)
			}
			seen[c.Name] = true
		}
		return nil
	}
	for _, tc := range f.Tests {
		if err := check(tc.ID, tc.Calls); err != nil {
			return err
		}
	}
	helpers := make(map[string]bool, len(f.Helpers))
	for _, h := range f.Helpers {
		helpers[h] = true
	}
	for name, calls := range f.HelperCalls {
		if !helpers[name] || len(calls) == 0 {
			return fmt.Errorf("helper calls of %q: not a helper, or empty", name)
		}
		if err := check(name, calls); err != nil {
			return err
		}
	}
	return nil
}

// AddCalls records n call sites of name in calls, a new name only while
// calls holds fewer than MaxCalls.
func AddCalls(calls []Call, name string, n int) []Call {
	if name == "" {
		return calls
	}
	for i := range calls {
		if calls[i].Name == name {
			calls[i].Sites += n
			return calls
		}
	}
	if len(calls) >= MaxCalls {
		return calls
	}
	return append(calls, Call{Name: name, Sites: n})
}

// SkipKind says how a test was kept from running.
type SkipKind string

// The kinds of skip.
const (
	SkipMarked      SkipKind = "skip"         // .skip, xit, @pytest.mark.skip, @Disabled, @Ignore, #[ignore]
	SkipTodo        SkipKind = "todo"         // .todo, it.todo
	SkipXFail       SkipKind = "xfail"        // pytest xfail, .failing
	SkipConditional SkipKind = "conditional"  // .skipIf, skipif, runIf, assume
	SkipCall        SkipKind = "skip_call"    // t.Skip(), pytest.skip(), this.skip(), ctx.skip()
	SkipShortGuard  SkipKind = "short_guard"  // if testing.Short() { t.Skip() } / return
	SkipEarlyReturn SkipKind = "early_return" // a return before the first assertion
	SkipCommented   SkipKind = "commented"    // the whole test is commented out (rarely detectable)
)

// Local is what a test's local variable was set to, for ThroughLocals:
// the normalized expression, the line of the assignment and how many
// times the body assigns the name.
type Local struct {
	Value string
	Line  int
	Count int
}

// ThroughLocals reads the checks of a body whose one side is a local set
// once, before the check, to a call of the function the other side calls
// (`let expected = parse("x"); assert_eq!(parse("x"), expected)`,
// `int expected = Calc.parse("x"); assertEquals(expected, Calc.parse("x"))`):
// the local's side becomes that call, so the circular expectation shows.
// Other checks keep the names as written.
func ThroughLocals(as []Assertion, locals map[string]*Local) {
	if len(locals) == 0 {
		return
	}
	for i := range as {
		a := &as[i]
		for _, side := range [2][2]*string{{&a.Expected, &a.Subject}, {&a.Subject, &a.Expected}} {
			l := locals[*side[0]]
			if l == nil || l.Count != 1 || l.Line >= a.Line {
				continue
			}
			if c := Callee(l.Value); c != "" && c == Callee(*side[1]) {
				*side[0] = l.Value
				break
			}
		}
	}
}

// Callee is the function an expression's outermost call names, "" when
// the expression is not a call (`Calc.parse("x")`: Calc.parse; `await
// f(x)`: f). The readers use it to tell which code a check is about.
func Callee(x string) string {
	x = strings.TrimPrefix(strings.TrimSpace(x), "await ")
	for i := 0; i < len(x); i++ {
		c := x[i]
		if c == '(' {
			return x[:i]
		}
		if !(c == '_' || c == '.' || c == ':' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return ""
		}
	}
	return ""
}

// LastCallee is Callee's last name (`calc.parse("x")`: parse), "" when the
// expression is not a call.
func LastCallee(x string) string {
	c := Callee(x)
	return c[strings.LastIndexAny(c, ".:")+1:]
}

// LoopParam returns the parameter of params that a loop arm of arms (a
// check's Arms, outermost first) iterates over: `range cases` (Go), `for
// text , want in cases` (Python), `for ( a , b ) in cases . iter ( )` or
// `&cases` (Rust), `for(const c of cases)` (JavaScript); "" when no loop
// iterates over a parameter.
func LoopParam(arms []Arm, params []string) string {
	if len(params) == 0 {
		return ""
	}
	for _, a := range arms {
		c := strings.TrimSpace(a.Cond)
		var it string
		switch {
		case strings.HasPrefix(c, "range "):
			it = c[len("range "):]
		case strings.HasPrefix(c, "for"):
			for _, kw := range []string{"in", "of", "range"} {
				if i := lastWord(c, kw); i >= 0 {
					it = strings.Join(strings.Fields(c[i+len(kw):]), "")
					if kw == "of" {
						it = strings.TrimSuffix(it, ")") // for (const c of cases)
					}
					break
				}
			}
		}
		it = strings.Join(strings.Fields(it), "")
		it = strings.TrimLeft(it, "&*")
		for _, suf := range []string{".iter()", ".into_iter()"} {
			it = strings.TrimSuffix(it, suf)
		}
		for _, p := range params {
			if it != "" && it == p {
				return p
			}
		}
	}
	return ""
}

// Without returns names less those drop holds, in order; names itself
// when drop holds none of them.
func Without(names []string, drop map[string]bool) []string {
	if len(drop) == 0 {
		return names
	}
	var out []string
	for _, n := range names {
		if !drop[n] {
			out = append(out, n)
		}
	}
	return out
}

// lastWord returns where the last occurrence of the word w in s starts (not
// inside a longer identifier), -1 when there is none.
func lastWord(s, w string) int {
	ident := func(c byte) bool {
		return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
	}
	for end := len(s); ; {
		i := strings.LastIndex(s[:end], w)
		if i < 0 {
			return -1
		}
		if (i == 0 || !ident(s[i-1])) && (i+len(w) == len(s) || !ident(s[i+len(w)])) {
			return i
		}
		end = i
	}
}

// OpenArms returns the arms of a stack of open blocks (nil for a block
// that is no branch), outermost first; nil when a check sits in none.
// The token readers keep such a stack while they walk a test's body.
func OpenArms(stack []*Arm) []Arm {
	var out []Arm
	for _, a := range stack {
		if a != nil {
			out = append(out, *a)
		}
	}
	return out
}

// Skip describes why a test does not run.
type Skip struct {
	Kind   SkipKind
	Reason string // the reason string when the source gives one
	Line   int
	// EnvGuard marks a conditional skip whose condition reads the process
	// environment (os.Getenv("CI")): it skips exactly where the gate runs.
	EnvGuard bool
	// Platform is, for a conditional skip on the operating system alone,
	// the one it skips on ("linux", "windows", "darwin"), or "!" and the
	// one it does not skip on (`runtime.GOOS != "windows"`); "" for any
	// other condition.
	Platform string `json:",omitempty"`
	// OnResult marks a conditional skip whose condition reads what the
	// code under test returned (`if got != 4 { t.Skip() }`): it skips
	// exactly when a check of that result would fail.
	OnResult bool `json:",omitempty"`
	// Runtime is, for a conditional skip on the version of the language's
	// runtime alone, the highest versions the test runs on: "<3.7" (it is
	// skipped from Python 3.7 on: `skipif(sys.version_info >= (3, 7))`) or
	// "<=23" (JUnit's @EnabledForJreRange(max = JAVA_23)); "" for any
	// other condition, one that runs the test on every later version among
	// them.
	Runtime string `json:",omitempty"`
}

// RuntimeGone reports whether a test that runs only on the versions
// runtime describes (Skip.Runtime) runs on none of those from min on (a
// dotted version, a project's lowest supported one): "<3.7" from 3.7, "<=23"
// from 24. A version that does not read as numbers answers false.
func RuntimeGone(runtime, min string) bool {
	bound, inclusive := "", false
	switch {
	case strings.HasPrefix(runtime, "<="):
		bound, inclusive = runtime[2:], true
	case strings.HasPrefix(runtime, "<"):
		bound = runtime[1:]
	default:
		return false
	}
	c, ok := CompareVersions(min, bound)
	if !ok {
		return false
	}
	return c > 0 || c == 0 && !inclusive
}

// CompareVersions compares two dotted versions of numbers ("3.7", "1.8",
// "17"), a missing part reading as 0: -1, 0 or 1, and false when either is
// not such a version.
func CompareVersions(a, b string) (int, bool) {
	parse := func(v string) ([]int, bool) {
		var out []int
		for _, p := range strings.Split(v, ".") {
			n, err := strconv.Atoi(p)
			if err != nil || n < 0 || p[0] == '+' {
				return nil, false
			}
			out = append(out, n)
		}
		return out, true
	}
	as, ok1 := parse(a)
	bs, ok2 := parse(b)
	if !ok1 || !ok2 {
		return 0, false
	}
	for i := 0; i < len(as) || i < len(bs); i++ {
		x, y := 0, 0
		if i < len(as) {
			x = as[i]
		}
		if i < len(bs) {
			y = bs[i]
		}
		if x != y {
			if x < y {
				return -1, true
			}
			return 1, true
		}
	}
	return 0, true
}

// PlatformOf names the operating system family of a spelling of it: Go's
// GOOS, Python's sys.platform prefix and platform.system(), Node's
// process.platform, os.name ("nt", "posix" is not one); "" for others.
func PlatformOf(s string) string {
	switch strings.ToLower(strings.Trim(s, "\"'`")) {
	case "linux":
		return "linux"
	case "windows", "win32", "win", "nt", "cygwin":
		return "windows"
	case "darwin", "macos", "mac":
		return "darwin"
	}
	return ""
}

// Strength ranks how much an assertion constrains the value it checks.
type Strength int

// Strengths, from an assertion that cannot fail to an exact comparison.
const (
	// Trivial assertions always pass: assert True, expect(true).toBe(true),
	// assert.True(t, true), assert!(true).
	Trivial Strength = iota
	// Weak assertions check existence or truthiness: toBeDefined, toBeTruthy,
	// NotNil, assert x, is not None, assert!(x).
	Weak
	// Medium assertions check a property: toContain, toMatch, toHaveLength,
	// Contains, Len, Greater, isinstance, raises without match, toThrow.
	Medium
	// Strong assertions compare with an exact expected value: toEqual, toBe,
	// toStrictEqual, Equal, assert_eq!, assertEqual, ==, cmp.Diff, t.Errorf after a
	// comparison.
	Strong
)

func (s Strength) String() string {
	switch s {
	case Trivial:
		return "trivial"
	case Weak:
		return "weak"
	case Medium:
		return "medium"
	case Strong:
		return "strong"
	}
	return "unknown"
}

// Assertion is one check in a test body.
type Assertion struct {
	Line int
	// Kind is the matcher or function as written, normalized to a stable name:
	// "toEqual", "assert.Equal", "require.NoError", "assertEqual", "assert ==",
	// "assert_eq!", "t.Errorf", "cmp.Diff", "pytest.raises".
	Kind     string
	Strength Strength
	// Negated is set for inverted checks: expect(x).not.toBe, NotEqual, !=,
	// assertNotEqual, assert_ne!, `assert not x`.
	Negated bool
	// Subject is the normalized source of the value under test (the actual).
	Subject string
	// Expected is the normalized source of the expected operand, "" when the
	// assertion has none.
	Expected string
	// Tolerance is the normalized source of a tolerance operand (InDelta's delta,
	// toBeCloseTo's digits, pytest.approx's rel/abs), "" when there is none.
	Tolerance string
	// Helper names the function that holds a helper assertion (File.
	// HelperAssertions; "Recv.Method" for a method), "" when the extractor
	// does not say, and for functions no test calls (Go benchmarks).
	Helper string
	// Rejects is, for a check of a flag the test sets when a promise
	// settles (failure = true in the .catch of axios.get(url), checked
	// true; success = true in its .then, checked false), the normalized call
	// whose rejection the check stands for, "!" and the call for a check of
	// such a flag that holds only when the call did not reject (success
	// checked true); "" for any other check. Only the JavaScript extractor
	// sets it.
	Rejects string `json:",omitempty"`
	// Floating is set on a check of a failure (assert.rejects, toThrow)
	// that the test neither awaits nor returns: on a promise, its verdict
	// comes after the test is over. Only the JavaScript extractor sets it.
	Floating bool `json:",omitempty"`
	// Origin is where the subject's value comes from, when the subject is
	// a variable: the normalized expression last assigned to it before the
	// check (`err := command.Create()`: "command.Create()"; the second of
	// `v, err := f()`: "f()#1"), or, in a helper, "$N" for its N-th
	// parameter (0-based). A check moved into a helper is the same check
	// when the call passes the helper the value the old check was about.
	// The Go extractor fills it.
	Origin string `json:",omitempty"`
	// RowsOf names the parameter of its helper that a loop around a helper
	// check iterates over (`for text, want in cases` in `def check(cases)`,
	// `for _, c := range cases`, `for (a, b) in cases.iter()`): the check
	// is made once per element the caller passes. Empty for test checks
	// and for loops over anything else. LoopParam reads it.
	RowsOf string `json:",omitempty"`
	// Arms are the branches of conditionals (if/else, a ternary, a
	// switch's cases) the check sits in within its test, outermost first:
	// checks of one subject in different arms of one conditional run
	// once per run between them (a per-browser expectation). Extractors
	// that read branches fill it; nil is a check no conditional guards.
	Arms []Arm `json:",omitempty"`
}

// Arm is one branch of a conditional that guards a check (see
// Assertion.Arms).
type Arm struct {
	// At tells the conditional apart from the others of the same file
	// version (its position); it is not comparable across versions.
	At int
	// Cond is the normalized source of the condition ("if(browser==='webkit')",
	// "switch(name)"): what names the conditional across versions.
	Cond string
	// Index is the arm: 0 the then-branch, 1 the else-branch; a switch
	// numbers its runs of cases between unconditional breaks.
	Index int
}

// Marker is a located fact such as a suppression comment or a literal comparison.
type Marker struct {
	Line int
	// Kind names the fact: for suppressions "ts-ignore", "ts-expect-error",
	// "ts-nocheck", "eslint-disable", "nolint", "noqa", "type-ignore",
	// "coverage-ignore", "empty-catch", "except-pass", "discarded-error",
	// "swallowed-error"; for bypasses "forced-exit"; for comparisons "literal".
	Kind string
	// Text is the normalized marker text (the comment, the literal), used to match
	// a marker in one version of a file with the same marker in another.
	Text string
	// Value is, for a comparison, the literal the branch it guards returns
	// at once (`if in == "x" { return 42 }`: "42"), normalized as Text.
	Value string `json:",omitempty"`
}

// PlaceholderMessage reports whether a failure's message says the code is
// not written: "not implemented", "not yet implemented", "unimplemented",
// "TODO", "TBD", "FIXME", "stub". The extractors share it, so a panic, a
// throw and a raise are read alike.
func PlaceholderMessage(msg string) bool {
	m := strings.ToLower(strings.TrimSpace(msg))
	for _, p := range []string{"not implemented", "not yet implemented", "unimplemented", "not impl", "implement me", "implementme"} {
		if strings.Contains(m, p) {
			return true
		}
	}
	first := strings.FieldsFunc(m, func(r rune) bool { return !unicode.IsLetter(r) })
	return len(first) > 0 && (first[0] == "todo" || first[0] == "tbd" || first[0] == "fixme" || first[0] == "stub")
}

// TodoComment returns a comment's text (without its delimiters) when it
// starts with TODO, FIXME or XXX as a word, its words joined by one space.
func TodoComment(text string) (string, bool) {
	t := strings.TrimSpace(text)
	for _, w := range []string{"TODO", "FIXME", "XXX"} {
		if strings.HasPrefix(t, w) {
			rest := t[len(w):]
			if rest == "" || !unicode.IsLetter(rune(rest[0])) && !unicode.IsDigit(rune(rest[0])) && rest[0] != '_' {
				return strings.Join(strings.Fields(t), " "), true
			}
		}
	}
	return "", false
}

// Symbol is a public name a file declares.
type Symbol struct {
	Name string // qualified where it helps: "Type.Method" for methods
	Kind string // "func", "type", "method", "const", "var", "class", "export", "command"
	Line int
}

// AppendName adds name, on line, to names, and ".name" as well when it
// follows a dot: the Namers' shared step.
func AppendName(names []Name, line int, name string, member bool) []Name {
	names = append(names, Name{line, name})
	if member {
		names = append(names, Name{line, "." + name})
	}
	return names
}

// NamesIn returns the texts of the names on lines line..endLine.
func NamesIn(names []Name, line, endLine int) []string {
	var out []string
	for _, n := range names {
		if n.Line >= line && n.Line <= endLine {
			out = append(out, n.Text)
		}
	}
	return out
}

// TestModeVar reports an environment variable whose name says the process
// runs tests (TESTING, TEST_MODE, RUNNING_TESTS, ...): production code that
// branches on one special-cases being under test, whoever sets it.
func TestModeVar(name string) bool {
	switch strings.ToUpper(name) {
	case "TESTING", "TEST_MODE", "TESTMODE", "UNIT_TEST", "UNITTEST", "UNIT_TESTING",
		"RUNNING_TESTS", "RUNNING_TEST", "IN_TEST", "IN_TESTS", "IS_TEST", "IS_TESTING", "UNDER_TEST":
		return true
	}
	return false
}
