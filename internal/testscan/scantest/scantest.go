// Package scantest holds the test helpers the language scanners' tests share:
// extracting a file or failing, finding a test by id, the call checks and the
// invariants their fuzz targets check. Only _test.go files import it. The
// table-driven tests keep their tables and t.Run loops in their own files,
// where ralph-gate's own analysis sees each case as a subtest.
package scantest

import (
	"fmt"
	"strings"
	"testing"

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

// IgnoreHelperName leaves out the helper an assertion stands in.
var IgnoreHelperName = cmpopts.IgnoreFields(testscan.Assertion{}, "Helper")

// CheckCalls fails t when f's calls break their invariants.
func CheckCalls(t testing.TB, f *testscan.File) {
	t.Helper()
	if err := f.CheckCalls(); err != nil {
		t.Fatal(err)
	}
}

// CheckMocks fails t when the mocks of f's tests (extracted from src)
// break their invariants (testscan.File.CheckMocks); a line ends at \n, \r
// or both.
func CheckMocks(t testing.TB, src string, f *testscan.File) {
	t.Helper()
	lines := strings.Count(src, "\n") + strings.Count(src, "\r") + 1
	if err := f.CheckMocks(lines); err != nil {
		t.Fatal(err)
	}
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

// CheckPlaceholders is the fuzz targets' check of File.Placeholders: known
// kinds, non-empty texts, lines within the source, a value only for a
// constant body, the comments before the statements before the constant
// bodies and each group in source order.
func CheckPlaceholders(t testing.TB, src string, ms []testscan.Marker) {
	t.Helper()
	lines := strings.Count(src, "\n") + 1
	rank := map[string]int{"todo-comment": 1, "not-implemented": 2, "constant-body": 3}
	for k, m := range ms {
		if m.Line < 1 || m.Line > lines || m.Text == "" || (m.Value != "") != (m.Kind == "constant-body") {
			t.Errorf("placeholder %+v: bad line, text or value (%d lines)", m, lines)
		}
		if rank[m.Kind] == 0 {
			t.Errorf("placeholder %+v: unknown kind", m)
		}
		if k > 0 {
			prev := ms[k-1]
			if rank[m.Kind] < rank[prev.Kind] || prev.Kind == m.Kind && m.Line < prev.Line {
				t.Errorf("placeholders out of order: %+v after %+v", m, prev)
			}
		}
	}
}

// CheckFuncs is the fuzz targets' check of File.Funcs: named functions on
// the source's lines, exits kept only for a function with an error or an
// empty exit, bounded exits and branches with known kinds and non-empty
// texts, each in source order.
func CheckFuncs(t testing.TB, src string, fs []testscan.Func) {
	t.Helper()
	lines := strings.Count(src, "\n") + 1
	in := func(l int) bool { return l >= 1 && l <= lines }
	for _, f := range fs {
		if f.Name == "" || !in(f.Line) || len(f.Exits) > testscan.MaxExits || len(f.Branches) > testscan.MaxBranches {
			t.Errorf("func %q at %d: bad name, line or size (%d lines)", f.Name, f.Line, lines)
		}
		if len(f.Exits) > 0 && !testscan.KeepsExits(f.Exits) {
			t.Errorf("func %q: exits kept without an error or empty one: %+v", f.Name, f.Exits)
		}
		for k, e := range f.Exits {
			if !in(e.Line) || e.Text == "" || e.Kind != testscan.ExitError && e.Kind != testscan.ExitEmpty && e.Kind != testscan.ExitOther {
				t.Errorf("func %q: bad exit %+v", f.Name, e)
			}
			if k > 0 && e.Line < f.Exits[k-1].Line {
				t.Errorf("func %q: exits out of order: %+v after %+v", f.Name, e, f.Exits[k-1])
			}
		}
		for k, b := range f.Branches {
			if !in(b.Line) || b.Subject == "" || b.Literal == "" || b.Answer == "" {
				t.Errorf("func %q: bad branch %+v", f.Name, b)
			}
			if k > 0 && b.Line < f.Branches[k-1].Line {
				t.Errorf("func %q: branches out of order: %+v after %+v", f.Name, b, f.Branches[k-1])
			}
		}
	}
}

// CheckFuncNames is the fuzz targets' check of File.FuncNames: names, each a
// function the file lists once, and every constant body among them.
func CheckFuncNames(t testing.TB, f *testscan.File) {
	t.Helper()
	seen := map[string]bool{}
	for _, name := range f.FuncNames {
		if name == "" || seen[name] {
			t.Errorf("FuncNames %q: empty or repeated %q", f.FuncNames, name)
		}
		seen[name] = true
	}
	for _, m := range f.Placeholders {
		if m.Kind == "constant-body" && !seen[m.Text] {
			t.Errorf("constant body %+v: %q is not among FuncNames %q", m, m.Text, f.FuncNames)
		}
	}
}
