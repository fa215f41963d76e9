// Package scantest holds the test helpers the language scanners' tests share:
// extracting a file or failing, comparing what was found with go-cmp, the
// table runners the scanners' tests have in common (helper assertions, calls,
// test file names, fingerprints) and the invariants their fuzz targets check.
// Only _test.go files import it.
package scantest

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// Extract runs e on src and fails t on an error.
func Extract(t testing.TB, e testscan.Extractor, path, src string) *testscan.File {
	t.Helper()
	f, err := e.Extract(path, []byte(src))
	if err != nil {
		t.Fatalf("Extract(%s): %v", path, err)
	}
	return f
}

// ExtractWith is Extract bound to e, for a scanner's tests to call as
// extract(t, path, src).
func ExtractWith(e testscan.Extractor) func(t testing.TB, path, src string) *testscan.File {
	return func(t testing.TB, path, src string) *testscan.File {
		t.Helper()
		return Extract(t, e, path, src)
	}
}

// Diff reports on t, as what, the difference between want and got.
func Diff(t testing.TB, what string, want, got any, opts ...cmp.Option) {
	t.Helper()
	if diff := cmp.Diff(want, got, opts...); diff != "" {
		t.Errorf("%s (-want +got):\n%s", what, diff)
	}
}

// IgnoreBodyHashes leaves a test case's fingerprint, literals and calls to
// their own tests.
var IgnoreBodyHashes = cmpopts.IgnoreFields(testscan.TestCase{}, "Fingerprint", "BodyTokens", "Literals", "Calls")

// IgnoreHelperName leaves out the helper an assertion stands in.
var IgnoreHelperName = cmpopts.IgnoreFields(testscan.Assertion{}, "Helper")

// TestsCase is a source file and the test cases an extractor should find in
// it (compared without IgnoreBodyHashes' fields).
type TestsCase struct {
	Name        string
	Path        string
	Src         string
	Want        []testscan.TestCase
	WantPartial bool
}

// RunTests extracts each case's source in a subtest and compares its tests and
// whether it is partial.
func RunTests(t *testing.T, e testscan.Extractor, cases []TestsCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			f := Extract(t, e, tt.Path, tt.Src)
			Diff(t, "tests", tt.Want, f.Tests, IgnoreBodyHashes)
			if f.Partial != tt.WantPartial {
				t.Errorf("Partial = %v, want %v", f.Partial, tt.WantPartial)
			}
		})
	}
}

// At is an assertion at line of kind and strength, negated or not, on subject
// against expected.
func At(line int, kind string, s testscan.Strength, neg bool, subject, expected string) testscan.Assertion {
	return testscan.Assertion{Line: line, Kind: kind, Strength: s, Negated: neg, Subject: subject, Expected: expected}
}

// HelperCase is a source file with the assertions its helpers make (in
// File.HelperAssertions, compared without the helper's name) and those of
// each test by id. A nil WantTests expects no tests.
type HelperCase struct {
	Name        string
	Path        string
	Src         string
	WantHelpers []testscan.Assertion
	WantTests   map[string][]testscan.Assertion
}

// RunHelperAssertions extracts each case's source in a subtest and compares
// its helper assertions and its tests' assertions.
func RunHelperAssertions(t *testing.T, e testscan.Extractor, cases []HelperCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			f := Extract(t, e, tt.Path, tt.Src)
			Diff(t, "HelperAssertions", tt.WantHelpers, f.HelperAssertions, IgnoreHelperName)
			got := map[string][]testscan.Assertion{}
			for _, tc := range f.Tests {
				got[tc.ID] = tc.Assertions
			}
			want := tt.WantTests
			if want == nil {
				want = map[string][]testscan.Assertion{}
			}
			Diff(t, "test assertions", want, got)
		})
	}
}

// Facts are the markers and symbols found in a production file.
type Facts struct {
	Suppressions []testscan.Marker
	Exports      []testscan.Symbol
	Comparisons  []testscan.Marker
}

// CheckProductionFile compares f's suppressions, exports and comparisons with
// want, each in a subtest, and fails t unless f is complete and has no tests.
func CheckProductionFile(t *testing.T, f *testscan.File, want Facts) {
	t.Helper()
	t.Run("suppressions", func(t *testing.T) { Diff(t, "suppressions", want.Suppressions, f.Suppressions) })
	t.Run("exports", func(t *testing.T) { Diff(t, "exports", want.Exports, f.Exports) })
	t.Run("comparisons", func(t *testing.T) { Diff(t, "comparisons", want.Comparisons, f.Comparisons) })
	if f.Partial || len(f.Tests) != 0 {
		t.Errorf("Partial = %v, %d tests; want a complete file without tests", f.Partial, len(f.Tests))
	}
}

// RunIsTestFile checks, in a subtest per path in order, that e.IsTestFile
// reports want[path].
func RunIsTestFile(t *testing.T, e testscan.Extractor, want map[string]bool) {
	t.Helper()
	for _, path := range slices.Sorted(maps.Keys(want)) {
		t.Run(path, func(t *testing.T) {
			if got := e.IsTestFile(path); got != want[path] {
				t.Errorf("IsTestFile(%q) = %v, want %v", path, got, want[path])
			}
		})
	}
}

// FingerprintCase is a variant of a base test and whether it keeps the base's
// fingerprint.
type FingerprintCase struct {
	Name     string
	Src      string
	WantSame bool
}

// RunFingerprints extracts the first test of base and of each case's source
// (all at path) and checks, in a subtest per case, that the fingerprints agree
// exactly when WantSame; a variant that keeps the fingerprint must keep the
// assertions too, but for their lines, and whatever same adds (nil for
// nothing). It returns the base test.
func RunFingerprints(t *testing.T, e testscan.Extractor, path, base string, cases []FingerprintCase, same func(t *testing.T, base, got testscan.TestCase)) testscan.TestCase {
	t.Helper()
	b := Extract(t, e, path, base).Tests[0]
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			got := Extract(t, e, path, tt.Src).Tests[0]
			if same := got.Fingerprint == b.Fingerprint; same != tt.WantSame {
				t.Errorf("fingerprint %s vs base %s: same = %v, want %v", got.Fingerprint, b.Fingerprint, same, tt.WantSame)
			}
			if !tt.WantSame {
				return
			}
			if diff := cmp.Diff(b.Assertions, got.Assertions, cmp.FilterPath(func(p cmp.Path) bool {
				return p.Last().String() == ".Line"
			}, cmp.Ignore())); diff != "" {
				t.Errorf("assertions changed by a rename or reformat (-base +got):\n%s", diff)
			}
			if same != nil {
				same(t, b, got)
			}
		})
	}
	return b
}

// Site is a call of name at sites places.
func Site(name string, sites int) testscan.Call {
	return testscan.Call{Name: name, Sites: sites}
}

// CheckCalls fails t when f's calls break their invariants.
func CheckCalls(t testing.TB, f *testscan.File) {
	t.Helper()
	if err := f.CheckCalls(); err != nil {
		t.Fatal(err)
	}
}

// Calls extracts src, which must parse completely, and compares the calls of
// its tests, by id, with wantTests and those of its helpers with wantHelpers.
func Calls(t *testing.T, e testscan.Extractor, path, src string, wantTests, wantHelpers map[string][]testscan.Call) *testscan.File {
	t.Helper()
	f, err := e.Extract(path, []byte(src))
	if err != nil || f.Partial {
		t.Fatalf("extract: %v partial=%v", err, f.Partial)
	}
	calls := map[string][]testscan.Call{}
	for _, tc := range f.Tests {
		calls[tc.ID] = tc.Calls
	}
	Diff(t, "test calls", wantTests, calls)
	Diff(t, "helper calls", wantHelpers, f.HelperCalls)
	return f
}

// ManyCalls returns testscan.MaxCalls+10 lines of calls, line i being format
// with i, and then line 0 again.
func ManyCalls(format string) string {
	var b strings.Builder
	for i := range testscan.MaxCalls + 10 {
		fmt.Fprintf(&b, format, i)
	}
	fmt.Fprintf(&b, format, 0)
	return b.String()
}

// CallsBounded extracts src, one test that calls more than testscan.MaxCalls
// functions, the first of them, first, a second time at the end; the test must
// keep the first MaxCalls names and count both sites of first.
func CallsBounded(t *testing.T, e testscan.Extractor, path, src, first string) {
	t.Helper()
	f, err := e.Extract(path, []byte(src))
	if err != nil || len(f.Tests) != 1 {
		t.Fatalf("extract: %v, %d tests", err, len(f.Tests))
	}
	calls := f.Tests[0].Calls
	if len(calls) != testscan.MaxCalls || calls[0] != Site(first, 2) {
		t.Errorf("got %d calls, first %+v; want %d, %s twice", len(calls), calls[0], testscan.MaxCalls, first)
	}
}

// CheckTests fails t unless every test has an id and a name, the ids are
// unique and each test's lines run forward from line 1.
func CheckTests(t testing.TB, tests []testscan.TestCase) {
	t.Helper()
	ids := map[string]bool{}
	for _, tc := range tests {
		if tc.ID == "" || tc.Name == "" {
			t.Errorf("empty id or name: %+v", tc)
		}
		if ids[tc.ID] {
			t.Errorf("duplicate id %q", tc.ID)
		}
		ids[tc.ID] = true
		if tc.Line < 1 || tc.Line > tc.EndLine {
			t.Errorf("test %q lines %d..%d", tc.ID, tc.Line, tc.EndLine)
		}
	}
}

// CheckHelperAssertions fails t unless the helper assertions stand on real
// lines in source order, each with a kind and a known strength.
func CheckHelperAssertions(t testing.TB, as []testscan.Assertion) {
	t.Helper()
	prev := 1
	for _, a := range as {
		if a.Line < prev || a.Kind == "" || a.Strength < testscan.Trivial || a.Strength > testscan.Strong {
			t.Errorf("bad or out-of-order helper assertion %+v after line %d", a, prev)
		}
		prev = a.Line
	}
}

// IDs lists the ids of f's tests in order.
func IDs(f *testscan.File) []string {
	var out []string
	for _, tc := range f.Tests {
		out = append(out, tc.ID)
	}
	return out
}

// ByID is f's test with id; t fails when f has none.
func ByID(t testing.TB, f *testscan.File, id string) testscan.TestCase {
	t.Helper()
	for _, tc := range f.Tests {
		if tc.ID == id {
			return tc
		}
	}
	t.Fatalf("no test %q among %q", id, IDs(f))
	return testscan.TestCase{}
}
