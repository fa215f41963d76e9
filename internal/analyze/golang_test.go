package analyze

import (
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

const goTestBase = `package calc

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAdd(t *testing.T) {
	got := Add(2, 3)
	if got != 5 {
		t.Errorf("Add(2, 3) = %d, want 5", got)
	}
}

func TestDivide(t *testing.T) {
	q, err := Divide(10, 4)
	require.NoError(t, err)
	assert.Equal(t, 2.5, q)
}

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want int
	}{
		{name: "zero", in: "0", want: 0},
		{name: "positive", in: "42", want: 42},
		{name: "negative", in: "-7", want: -7},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(tc.in)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}
`

const goSrcBase = `package calc

import "strconv"

// Add adds.
func Add(a, b int) int { return a + b }

// Divide divides.
func Divide(a, b float64) (float64, error) { return a / b, nil }

// Parse parses.
func Parse(s string) (int, error) { return strconv.Atoi(s) }

// Mul multiplies.
func Mul(a, b int) int { return a * b }
`

func TestGoCheats(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files []FileChange
		typ   gate.FindingType
		sev   gate.Severity
		file  string
		test  string
	}{
		{
			name: "test function deleted",
			files: []FileChange{mod("calc_test.go", goTestBase,
				strings.Replace(goTestBase, "func TestAdd(t *testing.T) {\n\tgot := Add(2, 3)\n\tif got != 5 {\n\t\tt.Errorf(\"Add(2, 3) = %d, want 5\", got)\n\t}\n}\n", "", 1))},
			typ: gate.TestDeletion, sev: gate.SeverityCritical, file: "calc_test.go", test: "TestAdd",
		},
		{
			name:  "test file deleted",
			files: []FileChange{del("calc_test.go", goTestBase)},
			typ:   gate.TestDeletion, sev: gate.SeverityCritical, file: "calc_test.go", test: "TestDivide",
		},
		{
			name: "table row deleted",
			files: []FileChange{mod("calc_test.go", goTestBase,
				strings.Replace(goTestBase, "\t\t{name: \"negative\", in: \"-7\", want: -7},\n", "", 1))},
			typ: gate.TestDeletion, sev: gate.SeverityCritical, file: "calc_test.go", test: "TestParse/negative",
		},
		{
			name: "test deleted, trivial test added",
			files: []FileChange{mod("calc_test.go", goTestBase,
				strings.Replace(goTestBase, "func TestAdd(t *testing.T) {\n\tgot := Add(2, 3)\n\tif got != 5 {\n\t\tt.Errorf(\"Add(2, 3) = %d, want 5\", got)\n\t}\n}\n", "func TestAddWorks(t *testing.T) {\n\tassert.True(t, true)\n}\n", 1))},
			typ: gate.TestDeletion, sev: gate.SeverityCritical, file: "calc_test.go", test: "TestAdd",
		},
		{
			name: "t.Skip added",
			files: []FileChange{mod("calc_test.go", goTestBase,
				strings.Replace(goTestBase, "func TestDivide(t *testing.T) {\n", "func TestDivide(t *testing.T) {\n\tt.Skip(\"flaky\")\n", 1))},
			typ: gate.TestSkipping, sev: gate.SeverityHigh, file: "calc_test.go", test: "TestDivide",
		},
		{
			name: "testing.Short guard added",
			files: []FileChange{mod("calc_test.go", goTestBase,
				strings.Replace(goTestBase, "func TestDivide(t *testing.T) {\n", "func TestDivide(t *testing.T) {\n\tif testing.Short() {\n\t\treturn\n\t}\n", 1))},
			typ: gate.TestSkipping, sev: gate.SeverityHigh, file: "calc_test.go", test: "TestDivide",
		},
		{
			name: "Equal weakened to NotNil",
			files: []FileChange{mod("calc_test.go", goTestBase,
				strings.Replace(goTestBase, "assert.Equal(t, 2.5, q)", "assert.NotNil(t, q)", 1))},
			typ: gate.AssertionWeakening, sev: gate.SeverityHigh, file: "calc_test.go", test: "TestDivide",
		},
		{
			name: "assertion removed",
			files: []FileChange{mod("calc_test.go", goTestBase,
				strings.Replace(goTestBase, "\tif got != 5 {\n\t\tt.Errorf(\"Add(2, 3) = %d, want 5\", got)\n\t}\n", "\t_ = got\n", 1))},
			typ: gate.AssertionWeakening, sev: gate.SeverityHigh, file: "calc_test.go", test: "TestAdd",
		},
		{
			name: "assertion commented out",
			files: []FileChange{mod("calc_test.go", goTestBase,
				strings.Replace(goTestBase, "\tassert.Equal(t, 2.5, q)\n", "\t// assert.Equal(t, 2.5, q)\n\t_ = q\n", 1))},
			typ: gate.AssertionWeakening, sev: gate.SeverityHigh, file: "calc_test.go", test: "TestDivide",
		},
		{
			name: "assertion inverted",
			files: []FileChange{mod("calc_test.go", goTestBase,
				strings.Replace(goTestBase, "assert.Equal(t, 2.5, q)", "assert.NotEqual(t, 2.5, q)", 1))},
			typ: gate.AssertionWeakening, sev: gate.SeverityHigh, file: "calc_test.go", test: "TestDivide",
		},
		{
			name: "expected value rewritten",
			files: []FileChange{mod("calc_test.go", goTestBase,
				strings.Replace(goTestBase, "assert.Equal(t, 2.5, q)", "assert.Equal(t, 2.0, q)", 1))},
			typ: gate.AssertionWeakening, sev: gate.SeverityMedium, file: "calc_test.go", test: "TestDivide",
		},
		{
			name: "nolint added",
			files: []FileChange{mod("calc.go", goSrcBase,
				strings.Replace(goSrcBase, "func Mul(a, b int) int { return a * b }", "func Mul(a, b int) int { return a * b } //nolint:gocritic", 1))},
			typ: gate.ErrorSuppression, sev: gate.SeverityMedium, file: "calc.go",
		},
		{
			name: "exported function removed",
			files: []FileChange{mod("calc.go", goSrcBase,
				strings.Replace(goSrcBase, "// Mul multiplies.\nfunc Mul(a, b int) int { return a * b }\n", "", 1))},
			typ: gate.FeatureRemoval, sev: gate.SeverityMedium, file: "calc.go",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expectFinding(t, run(tc.files...), tc.typ, tc.sev, tc.file, tc.test)
		})
	}
}

func TestGoLegitimate(t *testing.T) {
	helper := `package calc

import "testing"

func checkAdd(t *testing.T, a, b, want int) {
	t.Helper()
	if got := Add(a, b); got != want {
		t.Errorf("Add(%d, %d) = %d, want %d", a, b, got, want)
	}
}

func TestAdd(t *testing.T) {
	checkAdd(t, 2, 3, 5)
}
`
	helperBase := `package calc

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(2, 3); got != 5 {
		t.Errorf("Add(%d, %d) = %d, want %d", 2, 3, got, 5)
	}
}
`
	reformatted := strings.ReplaceAll(goTestBase, "\t\t{name: \"zero\", in: \"0\", want: 0},\n", "\t\t{\n\t\t\tname: \"zero\",\n\t\t\tin:   \"0\",\n\t\t\twant: 0,\n\t\t},\n")
	for _, tc := range []struct {
		name  string
		files []FileChange
	}{
		{"rename", []FileChange{mod("calc_test.go", goTestBase, strings.Replace(goTestBase, "func TestAdd(", "func TestAddSmallNumbers(", 1))}},
		{"move to another file", []FileChange{
			mod("calc_test.go", goTestBase, strings.Replace(goTestBase, "func TestAdd(t *testing.T) {\n\tgot := Add(2, 3)\n\tif got != 5 {\n\t\tt.Errorf(\"Add(2, 3) = %d, want 5\", got)\n\t}\n}\n", "", 1)),
			add("add_test.go", "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tgot := Add(2, 3)\n\tif got != 5 {\n\t\tt.Errorf(\"Add(2, 3) = %d, want 5\", got)\n\t}\n}\n"),
		}},
		{"file renamed", []FileChange{mv("calc_test.go", "arith_test.go", goTestBase, goTestBase)}},
		{"reformat", []FileChange{mod("calc_test.go", goTestBase, reformatted)}},
		{"new test", []FileChange{mod("calc_test.go", goTestBase, goTestBase+"\nfunc TestMul(t *testing.T) {\n\tif Mul(2, 3) != 6 {\n\t\tt.Fatal(\"Mul\")\n\t}\n}\n")}},
		{"added assertion", []FileChange{mod("calc_test.go", goTestBase, strings.Replace(goTestBase, "\tassert.Equal(t, 2.5, q)\n", "\tassert.Equal(t, 2.5, q)\n\tassert.Greater(t, q, 0.0)\n", 1))}},
		{"stronger assertion", []FileChange{mod("calc_test.go", goTestBase, strings.Replace(goTestBase, "require.NoError(t, err)", "require.Equal(t, nil, err)", 1))}},
		{"comment edit", []FileChange{mod("calc_test.go", goTestBase, strings.Replace(goTestBase, "func TestAdd(", "// TestAdd checks small sums.\nfunc TestAdd(", 1))}},
		{"source-only change", []FileChange{mod("calc.go", goSrcBase, strings.Replace(goSrcBase, "return a * b", "return b * a", 1))}},
		{"helper extraction", []FileChange{mod("calc_test.go", helperBase, helper)}},
		{"table row rewritten", []FileChange{mod("calc_test.go", goTestBase, strings.Replace(goTestBase, "{name: \"negative\", in: \"-7\", want: -7}", "{name: \"negative two digits\", in: \"-12\", want: -12}", 1))}},
		{"suite converted to plain test", []FileChange{mod("calc_test.go",
			"package calc\n\nimport (\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/suite\"\n)\n\ntype CalcSuite struct{ suite.Suite }\n\nfunc TestCalc(t *testing.T) { suite.Run(t, new(CalcSuite)) }\n\nfunc (s *CalcSuite) TestAdd() {\n\ts.Equal(5, Add(2, 3))\n}\n",
			"package calc\n\nimport (\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/require\"\n)\n\nfunc TestAdd(t *testing.T) {\n\tt.Parallel()\n\trequire.Equal(t, 5, Add(2, 3))\n}\n")}},
		{"new table row", []FileChange{mod("calc_test.go", goTestBase, strings.Replace(goTestBase, "\t\t{name: \"zero\", in: \"0\", want: 0},\n", "\t\t{name: \"zero\", in: \"0\", want: 0},\n\t\t{name: \"big\", in: \"100000\", want: 100000},\n", 1))}},
	} {
		t.Run(tc.name, func(t *testing.T) { expectNoHigh(t, run(tc.files...)) })
	}
}

func TestGoTableDataRewritten(t *testing.T) {
	base := "package v\n\nimport \"testing\"\n\nfunc TestName(t *testing.T) {\n\ttests := []struct {\n\t\tin   int\n\t\twant string\n\t}{\n\t\t{1, \"struct{}\"},\n\t\t{2, \"int\"},\n\t}\n\tfor _, tt := range tests {\n\t\tif got := Name(tt.in); got != tt.want {\n\t\t\tt.Errorf(\"got %q, want %q\", got, tt.want)\n\t\t}\n\t}\n}\n"
	fs := run(mod("v/name_test.go", base, strings.Replace(base, `"struct{}"`, `"struct {}"`, 1)))
	expectFinding(t, fs, gate.AssertionWeakening, gate.SeverityMedium, "v/name_test.go", "TestName")
	expectNoHigh(t, fs)
	// A new row only adds values: nothing to report.
	fs = run(mod("v/name_test.go", base, strings.Replace(base, "\t\t{2, \"int\"},\n", "\t\t{2, \"int\"},\n\t\t{3, \"string\"},\n", 1)))
	if len(fs) != 0 {
		t.Errorf("new row reported:%s", dump(fs))
	}
}

// A subtest named after a file ("TestParse/a.go") is not a suite method: a test
// deleted next to it is a plain deletion, not a removed suite runner.
func TestGoDeletionBesideDottedSubtests(t *testing.T) {
	base := "package p\n\nimport \"testing\"\n\nfunc TestParse(t *testing.T) {\n\tfor _, name := range []string{\"a.go\", \"b.go\"} {\n\t\tt.Run(name, func(t *testing.T) {\n\t\t\tif Parse(name) == nil {\n\t\t\t\tt.Fatal(name)\n\t\t\t}\n\t\t})\n\t}\n\tt.Run(\"x.go\", func(t *testing.T) {\n\t\tif Parse(\"x.go\") == nil {\n\t\t\tt.Fatal(\"x\")\n\t\t}\n\t})\n}\n\nfunc TestRuns(t *testing.T) {\n\trunAll(t)\n}\n"
	fs := run(mod("p/parse_test.go", base, strings.Replace(base, "\nfunc TestRuns(t *testing.T) {\n\trunAll(t)\n}\n", "", 1)))
	for _, f := range fs {
		if f.Rule == "suite-runner-deleted" {
			t.Fatalf("read as a suite runner:%s", dump(fs))
		}
	}
	expectFinding(t, fs, gate.TestDeletion, gate.SeverityHigh, "p/parse_test.go", "TestRuns")
}

// Checks taken out of a test helper weaken every test that calls it, though no
// test changes.
func TestHelperAssertionRemoved(t *testing.T) {
	base := "package calc\n\nimport \"testing\"\n\nfunc checkAdd(t *testing.T, a, b, want int) {\n\tt.Helper()\n\tif got := Add(a, b); got != want {\n\t\tt.Fatalf(\"Add(%d, %d) = %d, want %d\", a, b, got, want)\n\t}\n}\n\nfunc TestAdd(t *testing.T) {\n\tcheckAdd(t, 2, 3, 5)\n\tcheckAdd(t, -1, 1, 0)\n}\n"
	weakened := strings.Replace(base, "t.Fatalf(", "t.Logf(", 1)
	fs := run(mod("calc_test.go", base, weakened))
	expectFinding(t, fs, gate.AssertionWeakening, gate.SeverityHigh, "calc_test.go", "")
	if !strings.Contains(dump(fs), "helper-assertion-removed") {
		t.Errorf("want rule helper-assertion-removed:%s", dump(fs))
	}
	emptied := strings.Replace(base, "\tif got := Add(a, b); got != want {\n\t\tt.Fatalf(\"Add(%d, %d) = %d, want %d\", a, b, got, want)\n\t}\n", "\t_ = Add(a, b)\n", 1)
	expectFinding(t, run(mod("calc_test.go", base, emptied)), gate.AssertionWeakening, gate.SeverityHigh, "calc_test.go", "")

	// One of two checks taken out: medium (a check can move behind a call).
	two := strings.Replace(base, "\tt.Helper()\n", "\tt.Helper()\n\tif a < 0 {\n\t\tt.Fatal(\"negative\")\n\t}\n", 1)
	fs = run(mod("calc_test.go", two, strings.Replace(two, "\tif a < 0 {\n\t\tt.Fatal(\"negative\")\n\t}\n", "", 1)))
	expectFinding(t, fs, gate.AssertionWeakening, gate.SeverityMedium, "calc_test.go", "")
	expectNoHigh(t, fs)

	py := "from calc import add\n\n\ndef check_add(a, b, want):\n    assert add(a, b) == want\n\n\ndef test_add():\n    check_add(2, 3, 5)\n"
	expectFinding(t, run(mod("tests/test_calc.py", py, strings.Replace(py, "    assert add(a, b) == want\n", "    add(a, b)\n", 1))),
		gate.AssertionWeakening, gate.SeverityHigh, "tests/test_calc.py", "")
}

// Legitimate helper edits: renamed, moved to another file, its check inlined
// into the tests, or made stricter.
func TestHelperEditsLegitimate(t *testing.T) {
	base := "package calc\n\nimport \"testing\"\n\nfunc checkAdd(t *testing.T, a, b, want int) {\n\tt.Helper()\n\tif got := Add(a, b); got != want {\n\t\tt.Fatalf(\"Add(%d, %d) = %d, want %d\", a, b, got, want)\n\t}\n}\n\nfunc TestAdd(t *testing.T) {\n\tcheckAdd(t, 2, 3, 5)\n}\n"
	helper := "func checkAdd(t *testing.T, a, b, want int) {\n\tt.Helper()\n\tif got := Add(a, b); got != want {\n\t\tt.Fatalf(\"Add(%d, %d) = %d, want %d\", a, b, got, want)\n\t}\n}\n\n"
	for _, tc := range []struct {
		name  string
		files []FileChange
	}{
		{"renamed", []FileChange{mod("calc_test.go", base, strings.ReplaceAll(base, "checkAdd", "assertAdd"))}},
		{"moved to a shared file", []FileChange{
			mod("calc_test.go", base, strings.Replace(base, helper, "", 1)),
			add("helpers_test.go", "package calc\n\nimport \"testing\"\n\n"+helper),
		}},
		{"inlined into the test", []FileChange{mod("calc_test.go", base,
			"package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif got := Add(2, 3); got != 5 {\n\t\tt.Fatalf(\"Add(2, 3) = %d, want 5\", got)\n\t}\n}\n")}},
		{"made stricter", []FileChange{mod("calc_test.go", base, strings.Replace(base, "\tt.Helper()\n", "\tt.Helper()\n\tif a < 0 {\n\t\tt.Fatal(\"negative\")\n\t}\n", 1))}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := run(tc.files...)
			expectNoHigh(t, fs)
			if strings.Contains(dump(fs), "helper-assertion-removed") {
				t.Errorf("helper rule fired:%s", dump(fs))
			}
		})
	}
}

// A testify check replaced by the project's own assertion helper from
// another package (prometheus 979aea1d49: require.ElementsMatch became
// testutil.RequireEqual) is a stand-in, not a removal; a call that only
// sets up (testutil.NewServer) stands in for nothing.
func TestGoProjectAssertionHelper(t *testing.T) {
	base := "package p\n\nimport (\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/require\"\n\n\t\"example.com/proj/util/testutil\"\n)\n\nfunc TestLabels(t *testing.T) {\n\tlbls, err := Labels()\n\trequire.NoError(t, err)\n\trequire.ElementsMatch(t, lbls, want)\n}\n"
	fs := run(mod("p_test.go", base, strings.Replace(base, "require.ElementsMatch(t, lbls, want)", "testutil.RequireEqual(t, lbls, want)", 1)))
	expectNoHigh(t, fs)
	fs = run(mod("p_test.go", base, strings.Replace(base, "require.ElementsMatch(t, lbls, want)", "testutil.NewServer(t)", 1)))
	expectFinding(t, fs, gate.AssertionWeakening, gate.SeverityHigh, "p_test.go", "TestLabels")
}
