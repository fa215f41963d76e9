package golang

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scantest"
)

func TestExtractTestIDs(t *testing.T) {
	tests := []struct {
		name string
		path string
		src  string
		want []testRow
	}{
		{
			name: "functions, fuzz, examples and what go test does not run",
			path: "parse/parse_test.go",
			src: `package parse

import "testing"

func TestParse(t *testing.T) {
	if Parse("1") != 1 {
		t.Fatal("bad")
	}
}

func Testlower(t *testing.T) {}

func TestHelperWithArgs(t *testing.T, n int) {}

func BenchmarkParse(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Parse("1")
	}
}

func FuzzParse(f *testing.F) {
	f.Add("1")
	f.Fuzz(func(t *testing.T, s string) { Parse(s) })
}

func ExampleParse() {
	fmt.Println(Parse("1"))
	// Output: 1
}

func ExampleParse_unordered() {
	fmt.Println(1)
	// Unordered output:
	// 1
}

func ExampleNotRun() {
	fmt.Println(1)
}

func TestMain(m *testing.M) { os.Exit(m.Run()) }
`,
			want: []testRow{
				{ID: "TestParse", Line: 5, EndLine: 9},
				{ID: "FuzzParse", Line: 21, EndLine: 24},
				{ID: "ExampleParse", Line: 26, EndLine: 29},
				{ID: "ExampleParse_unordered", Line: 31, EndLine: 35},
			},
		},
		{
			name: "literal subtests, nesting, rewrite and duplicates",
			path: "x_test.go",
			src: `package x

import "testing"

func TestServer(t *testing.T) {
	t.Run("starts up", func(t *testing.T) {
		t.Run("with TLS", func(t *testing.T) {
			if err := start(true); err != nil {
				t.Fatal(err)
			}
		})
		t.Run("with TLS", func(t *testing.T) {})
	})
	t.Run("", func(t *testing.T) {})
	t.Run(fmt.Sprintf("case %d", 1), func(t *testing.T) {})
	t.Run(name(), runCase)
}
`,
			want: []testRow{
				{ID: "TestServer/starts_up/with_TLS", Line: 7, EndLine: 11},
				{ID: "TestServer/starts_up/with_TLS#01", Line: 12, EndLine: 12},
				{ID: "TestServer/#00", Line: 14, EndLine: 14},
				{ID: "TestServer/*", Line: 15, EndLine: 15, Dynamic: true},
				{ID: "TestServer/*#01*", Line: 16, EndLine: 16, Dynamic: true},
			},
		},
		{
			name: "table tests: slice, package-level var, positional rows, map, strings",
			path: "table_test.go",
			src: `package x

import "testing"

type tcase struct {
	name string
	in   int
}

var pkgCases = []tcase{
	{"zero value", 0},
	{"big", 1 << 20},
}

func TestSlice(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    int
		wantErr bool
	}{
		{name: "empty", in: "", wantErr: true},
		{
			name: "one",
			in:   "1",
			want: 1,
		},
	}
	for _, tt := range tests {
		tt := tt
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Atoi(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v", err)
			}
			if got != tt.want {
				t.Errorf("got %d", got)
			}
		})
	}
}

func TestPackageLevel(t *testing.T) {
	for _, c := range pkgCases {
		t.Run(c.name, func(t *testing.T) {
			if Abs(c.in) < 0 {
				t.Error("negative")
			}
		})
	}
}

func TestMapKeyed(t *testing.T) {
	for name, tc := range map[string]struct{ in, want string }{
		"upper": {in: "a", want: "A"},
		"noop":  {in: "A", want: "A"},
	} {
		t.Run(name, func(t *testing.T) {
			if got := Upper(tc.in); got != tc.want {
				t.Errorf("Upper(%q) = %q", tc.in, got)
			}
		})
	}
}

func TestStrings(t *testing.T) {
	for _, s := range []string{"a b", "c"} {
		t.Run(s, func(t *testing.T) {
			if !Valid(s) {
				t.Error(s)
			}
		})
	}
}

func TestFromFunction(t *testing.T) {
	for _, tc := range loadCases() {
		t.Run(tc.name, func(t *testing.T) {
			if tc.run() != nil {
				t.Fail()
			}
		})
	}
}
`,
			want: []testRow{
				{ID: "TestSlice/empty", Line: 22, EndLine: 22},
				{ID: "TestSlice/one", Line: 23, EndLine: 27},
				{ID: "TestPackageLevel/zero_value", Line: 11, EndLine: 11},
				{ID: "TestPackageLevel/big", Line: 12, EndLine: 12},
				{ID: "TestMapKeyed/upper", Line: 56, EndLine: 56},
				{ID: "TestMapKeyed/noop", Line: 57, EndLine: 57},
				{ID: "TestStrings/a_b", Line: 68, EndLine: 68},
				{ID: "TestStrings/c", Line: 68, EndLine: 68},
				{ID: "TestFromFunction/*", Line: 79, EndLine: 83, Dynamic: true},
			},
		},
		{
			name: "a parent that asserts is a test case too",
			path: "p_test.go",
			src: `package p

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestStore(t *testing.T) {
	s, err := Open(t.TempDir())
	require.NoError(t, err)
	t.Run("get", func(t *testing.T) {
		require.Equal(t, "v", s.Get("k"))
	})
}
`,
			want: []testRow{
				{ID: "TestStore", Line: 9, EndLine: 15},
				{ID: "TestStore/get", Line: 12, EndLine: 14},
			},
		},
		{
			name: "testify and gocheck suites",
			path: "suite_test.go",
			src: `package p

import (
	"testing"

	"github.com/stretchr/testify/suite"
	. "gopkg.in/check.v1"
)

type DBSuite struct {
	suite.Suite
	db *DB
}

func TestDBSuite(t *testing.T) { suite.Run(t, new(DBSuite)) }

func (s *DBSuite) SetupTest() { s.db = Open() }

func (s *DBSuite) TestInsert() {
	s.Require().NoError(s.db.Insert(1))
	s.Run("then count", func() {
		s.Equal(1, s.db.Count())
	})
}

func (s *DBSuite) helper() {}

type CheckSuite struct{}

func (cs *CheckSuite) TestRead(c *C) {
	c.Assert(Read(), Equals, "x")
}
`,
			want: []testRow{
				{ID: "TestDBSuite", Line: 15, EndLine: 15},
				{ID: "DBSuite.TestInsert", Line: 19, EndLine: 24},
				{ID: "DBSuite.TestInsert/then_count", Line: 21, EndLine: 23},
				{ID: "CheckSuite.TestRead", Line: 30, EndLine: 32},
			},
		},
		{
			name: "strings and comments that look like tests are not tests",
			path: "gen_test.go",
			src:  "package gen\n\nimport \"testing\"\n\nconst tmpl = `\nfunc TestGenerated(t *testing.T) {\n\tt.Run(\"x\", func(t *testing.T) {})\n}\n`\n\n// func TestCommented(t *testing.T) {}\n\n/*\nfunc TestBlock(t *testing.T) {}\n*/\n\nfunc TestReal(t *testing.T) {\n\tsrc := \"func TestInString(t *testing.T) { t.Skip() }\"\n\t// t.Skip(\"not really\")\n\tif Gen(src) == \"\" {\n\t\tt.Error(\"empty\")\n\t}\n}\n",
			want: []testRow{
				{ID: "TestReal", Line: 17, EndLine: 23},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := extract(t, tt.path, tt.src)
			if f.Partial {
				t.Errorf("Partial = true for a file that parses")
			}
			if diff := cmp.Diff(tt.want, rows(f)); diff != "" {
				t.Errorf("tests (-want +got):\n%s", diff)
			}
		})
	}
}

func TestExtractSkips(t *testing.T) {
	src := `package p

import (
	"os"
	"runtime"
	"testing"
)

func TestSkipped(t *testing.T) {
	t.Skip("flaky on CI")
	if Do() != 1 {
		t.Fatal("bad")
	}
}

func TestShort(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	t.Run("sub", func(t *testing.T) { check(t) })
}

func TestShortReturn(t *testing.T) {
	if testing.Short() {
		return
	}
	if Do() != 1 {
		t.Fatal("bad")
	}
}

func TestNotShortWrap(t *testing.T) {
	if !testing.Short() {
		if Do() != 1 {
			t.Fatal("bad")
		}
	}
}

func TestEnv(t *testing.T) {
	if os.Getenv("DOCKER") == "" {
		t.Skipf("set %s", "DOCKER")
	}
	if Do() != 1 {
		t.Fatal("bad")
	}
}

func TestOS(t *testing.T) {
	switch runtime.GOOS {
	case "windows":
		t.SkipNow()
	}
	if Do() != 1 {
		t.Fatal("bad")
	}
}

func TestEarlyReturn(t *testing.T) {
	return
	if Do() != 1 {
		t.Fatal("bad")
	}
}

func TestReturnAfterCheck(t *testing.T) {
	if Do() != 1 {
		t.Fatal("bad")
	}
	return
	if Do() != 2 {
		t.Fatal("bad")
	}
}

func TestTrailingReturn(t *testing.T) {
	if Do() != 1 {
		t.Fatal("bad")
	}
	return
}

func TestNestedSkipIsNotTop(t *testing.T) {
	for _, n := range []int{1, 2} {
		if n == 2 {
			t.Skip("two")
		}
	}
	if Do() != 1 {
		t.Fatal("bad")
	}
}

func TestRows(t *testing.T) {
	tests := []struct {
		name string
		skip bool
		todo string
	}{
		{name: "runs"},
		{name: "skipped", skip: true},
		{name: "todo", todo: "later"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.skip || tc.todo != "" {
				t.Skip("not yet")
			}
			if Do() != 1 {
				t.Fatal("bad")
			}
		})
	}
}
`
	f := extract(t, "skip_test.go", src)
	want := map[string]*testscan.Skip{
		"TestSkipped":            {Kind: testscan.SkipCall, Reason: "flaky on CI", Line: 10},
		"TestShort/sub":          {Kind: testscan.SkipShortGuard, Reason: "slow", Line: 18},
		"TestShortReturn":        {Kind: testscan.SkipShortGuard, Line: 25},
		"TestNotShortWrap":       {Kind: testscan.SkipShortGuard, Line: 33},
		"TestEnv":                {Kind: testscan.SkipConditional, Reason: "set %s", Line: 42, EnvGuard: true},
		"TestOS":                 {Kind: testscan.SkipConditional, Line: 52},
		"TestEarlyReturn":        {Kind: testscan.SkipEarlyReturn, Line: 60},
		"TestReturnAfterCheck":   nil,
		"TestTrailingReturn":     nil,
		"TestNestedSkipIsNotTop": nil,
		"TestRows/runs":          nil,
		"TestRows/skipped":       {Kind: testscan.SkipCall, Reason: "not yet", Line: 107},
		"TestRows/todo":          {Kind: testscan.SkipCall, Reason: "not yet", Line: 107},
	}
	got := map[string]*testscan.Skip{}
	for _, tc := range f.Tests {
		got[tc.ID] = tc.Skip
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("skips (-want +got):\n%s", diff)
	}
	if n := len(scantest.ByID(t, f, "TestReturnAfterCheck").Assertions); n != 1 {
		t.Errorf("TestReturnAfterCheck has %d assertions, want 1 (the one after return is dead)", n)
	}
}
