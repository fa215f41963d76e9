package collectors

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestJUnitCases(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  map[string]string
		file  map[string]string
	}{
		{
			name:  "bare testsuite root, ids",
			input: `<testsuite name="s"><testcase classname="a.B" name="t1"/><testcase name="t2"/><testcase classname="x y" name="x y"/></testsuite>`,
			want:  map[string]string{"a.B.t1": "passed", "s > t2": "passed", "x y": "passed"},
		},
		{
			name: "outcome precedence and nested suites",
			input: `<testsuites><testsuite name="outer"><testsuite name="inner" file="spec/a.js">
				<testcase classname="c" name="fails"><skipped/><failure message="m">body</failure></testcase>
				<testcase classname="c" name="errors"><failure/><error message="e"/></testcase>
				<testcase classname="c" name="skips"><skipped message="todo"/><system-out>out</system-out></testcase>
				<testcase classname="c" name="flaky"><flakyFailure message="first"/><system-err/></testcase>
				<testcase classname="c" name="props"><properties><property name="k" value="v"/></properties></testcase>
			</testsuite></testsuite></testsuites>`,
			want: map[string]string{"c.fails": "failed", "c.errors": "error", "c.skips": "skipped", "c.flaky": "passed (flaky)", "c.props": "passed"},
			file: map[string]string{"c.fails": "spec/a.js"},
		},
		{
			name:  "retried test: failure wins",
			input: `<testsuite><testcase classname="c" name="t"><failure/></testcase><testcase classname="c" name="t"/></testsuite>`,
			want:  map[string]string{"c.t": "failed (flaky)"},
		},
		{
			name:  "latin-1 and comments",
			input: "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<!-- c --><testsuite><testcase classname=\"c\" name=\"caf\xe9\"/></testsuite>\n<!-- end -->\n",
			want:  map[string]string{"c.café": "passed"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := mustParse(t, JUnit{}, tc.input)
			if diff := cmp.Diff(tc.want, summarize(r).Outcomes); diff != "" {
				t.Errorf("outcomes (-want +got):\n%s", diff)
			}
			for id, f := range tc.file {
				if got, _ := r.Tests.Get(id); got.File != f {
					t.Errorf("%s file = %q, want %q", id, got.File, f)
				}
			}
		})
	}
	t.Run("failure message", func(t *testing.T) {
		r := mustParse(t, JUnit{}, `<testsuite><testcase classname="c" name="t"><failure message="expected 1">at x.js:3</failure></testcase></testsuite>`)
		got, _ := r.Tests.Get("c.t")
		if want := "expected 1\nat x.js:3"; got.Message != want {
			t.Errorf("message = %q, want %q", got.Message, want)
		}
		if got.Suite != "c" || got.Name != "t" {
			t.Errorf("suite, name = %q, %q, want c, t", got.Suite, got.Name)
		}
	})
}

func TestJUnitDeclaredCountCrossCheck(t *testing.T) {
	tests := []struct {
		name, xml string
		want      []IntegrityProblem
	}{
		{"counts agree", `<testsuites tests="2"><testsuite name="calc" tests="2"><testcase classname="calc" name="a"/><testcase classname="calc" name="b"/></testsuite></testsuites>`, nil},
		{"fewer declared than listed (skipped left out)", `<testsuite name="calc" tests="1"><testcase classname="calc" name="a"/><testcase classname="calc" name="b"><skipped/></testcase></testsuite>`, nil},
		{"no tests attribute", `<testsuite name="calc"><testcase classname="calc" name="a"/></testsuite>`, nil},
		{"nested suites count toward the parent", `<testsuite name="all" tests="2"><testsuite name="x" tests="1"><testcase name="a"/></testsuite><testsuite name="y" tests="1"><testcase name="b"/></testsuite></testsuite>`, nil},
		{"cases cut from the report", `<testsuite name="calc" tests="3"><testcase classname="calc" name="a"/></testsuite>`,
			[]IntegrityProblem{{Package: "calc", Problem: "its JUnit report declares 3 tests and lists 1: test cases are missing from the report"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := JUnit{}.Parse("r.xml", strings.NewReader(tc.xml))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, r.Integrity); diff != "" {
				t.Errorf("Integrity (-want +got):\n%s", diff)
			}
		})
	}
}

// TestJUnitFileFromClassname: vitest writes the test file as the classname
// and no file attribute; jest-junit's and pytest's classnames are not paths.
func TestJUnitFileFromClassname(t *testing.T) {
	tests := map[string]string{
		"testdata/junit/vitest.xml":        "src/calc.test.js",
		"testdata/junit/jest-junit.xml":    "",
		"testdata/junit/pytest-xunit2.xml": "",
	}
	for fixture, want := range tests {
		f, err := os.Open(fixture)
		if err != nil {
			t.Fatal(err)
		}
		r, err := JUnit{}.Parse(fixture, f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for tc := range r.Tests.All() {
			if tc.File != want && !(want == "" && strings.HasSuffix(tc.File, ".py")) {
				t.Errorf("%s: %s has file %q, want %q", fixture, tc.ID, tc.File, want)
			}
		}
	}
}
