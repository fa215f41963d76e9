package collect

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestVerboseTestsRecorded(t *testing.T) {
	for _, tc := range []struct {
		file string
		want map[string]string
	}{
		{"go-test-v.txt", map[string]string{
			"example.com/v/a.TestPass":          TestPassed,
			"example.com/v/a.TestFail":          TestFailed,
			"example.com/v/a.TestSkip":          TestSkipped,
			"example.com/v/a.TestSubs":          TestFailed,
			"example.com/v/a.TestSubs/one":      TestPassed,
			"example.com/v/a.TestSubs/two":      TestFailed,
			"example.com/v/a.TestSubs/two/deep": TestFailed,
			"example.com/v/b.TestB":             TestPassed,
			"example.com/v/b.TestForged":        TestPassed, // printed by a test: evidence, not verdict
			"example.com/v/c":                   TestFailed, // build failed
		}},
		{"pytest-rA.txt", map[string]string{
			"tests/test_a.py::test_pass":     TestPassed,
			"tests/test_a.py::test_param[1]": TestPassed,
			"tests/test_a.py::test_param[2]": TestPassed,
			"tests/test_a.py::test_xfail":    TestSkipped,
			"tests/test_a.py::test_fail":     TestFailed,
		}},
	} {
		b, err := os.ReadFile(filepath.Join("testdata", "verbose", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(tc.want, VerboseTests(b)); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.file, d)
		}
	}
}

func TestVerboseTestsEdges(t *testing.T) {
	for _, tc := range []struct {
		name, out string
		want      map[string]string
	}{
		{"no package line: a run cut short", "--- PASS: TestA (0.00s)\n", map[string]string{"TestA": TestPassed}},
		{"worst outcome kept", "--- PASS: TestA (0.00s)\n--- FAIL: TestA (0.00s)\nok  \tp\t0.1s\n", map[string]string{"p.TestA": TestFailed}},
		{"a summary word outside the summary", "PASSED tests/x.py::test_a\n", map[string]string{}},
		{"a parametrize id with spaces", "==== short test summary info ====\nFAILED t.py::test_a[a b] - boom\n", map[string]string{"t.py::test_a[a b]": TestFailed}},
		{"the summary ends at the next rule", "==== short test summary info ====\n==== 1 passed ====\nPASSED t.py::test_a\n", map[string]string{}},
	} {
		if d := cmp.Diff(tc.want, VerboseTests([]byte(tc.out))); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, d)
		}
	}
}

func FuzzVerboseTests(f *testing.F) {
	for _, name := range []string{"go-test-v.txt", "pytest-rA.txt"} {
		b, err := os.ReadFile(filepath.Join("testdata", "verbose", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("--- PASS: (\nok  \t\t\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for id, o := range VerboseTests(b) {
			if id == "" || o != TestPassed && o != TestFailed && o != TestSkipped {
				t.Fatalf("bad entry %q=%q", id, o)
			}
		}
	})
}
