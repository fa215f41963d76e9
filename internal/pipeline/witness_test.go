package pipeline

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/collectors"
	"github.com/ralph-gate/ralph-gate/internal/gate"
)

func TestMatchesAny(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		id   string
		ids  []string
		want bool
	}{
		{"example.com/calc.TestMul", []string{"TestMul"}, true},
		{"example.com/calc.TestMul/negative", []string{"TestMul"}, true},
		{"example.com/calc.TestMul/negative", []string{"TestMul/negative"}, true},
		{"example.com/calc.TestMulti", []string{"TestMul"}, false},
		{"example.com/calc.TestMul", []string{"TestMul/negative"}, false},
		{"example.com/calc.TestTable/row_1", []string{"TestTable/*"}, true},
		{"tests/test_calc.py::test_div[0-1]", []string{"test_div"}, true},
		{"tests.test_termui.test_edit_pathlib[iterable]", []string{"test_edit_pathlib[single]", "test_edit_pathlib[iterable]"}, true},
		{"tests.test_termui.test_edit_pathlib[iterable]", []string{"test_edit_pathlib[*]"}, true},
		{"tests.test_calc.TestCalc.test_div", []string{"TestCalc::test_div"}, true},
		{"tests.test_calc.test_divide", []string{"test_div"}, false},
		{"test/calc.test.ts > calc > just above", []string{"calc > just above"}, true},
		{"test/calc.test.ts > calc > just above", []string{"just above"}, true},
		{"test/calc.test.ts > calc > not just above", []string{"calc > just above"}, false},
		{"anything", nil, false},
	} {
		set := map[string]bool{}
		for _, s := range c.ids {
			set[s] = true
		}
		if got := matchesAny(c.id, set); got != c.want {
			t.Errorf("matchesAny(%q, %v) = %v, want %v", c.id, c.ids, got, c.want)
		}
	}
}

func TestTestSide(t *testing.T) {
	t.Parallel()
	for p, want := range map[string]bool{
		"calc_test.go":                     true,
		"calc.go":                          false,
		"testdata/golden.txt":              true,
		"pkg/testutil/assert.go":           true,
		"src/__snapshots__/a.test.ts.snap": true,
		"tests/helpers.py":                 true,
		"src/contest.py":                   false,
		"internal/tester/run.go":           false,
		"src/calc.ts":                      false,
	} {
		if got := testSide(p); got != want {
			t.Errorf("testSide(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestGoCodeTokens(t *testing.T) {
	t.Parallel()
	a := []byte("package calc\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n")
	same := []byte("package calc\n\n// Add adds a and b.\nfunc Add(a, b int) int {\n\treturn a + b // the sum\n}\n")
	changed := []byte("package calc\n\n// Add adds.\nfunc Add(a, b int) int { return a - b }\n")
	if !bytes.Equal(goCodeTokens(a), goCodeTokens(same)) {
		t.Errorf("comments and layout changed the tokens")
	}
	if bytes.Equal(goCodeTokens(a), goCodeTokens(changed)) {
		t.Errorf("an operator change left the tokens equal")
	}
}

func TestFileLevel(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		t    collectors.Test
		file string
		want bool
	}{
		{collectors.Test{ID: "tests.test_clamp"}, "tests/test_clamp.py", true},
		{collectors.Test{ID: "tests/test_clamp.py"}, "tests/test_clamp.py", true},
		{collectors.Test{ID: "tests.test_clamp.test_x"}, "tests/test_clamp.py", false},
		{collectors.Test{ID: "test/clamp.test.ts", File: "test/clamp.test.ts"}, "test/clamp.test.ts", true},
		{collectors.Test{ID: "x", File: "test/clamp.test.ts", Name: "inside"}, "test/clamp.test.ts", false},
		{collectors.Test{ID: "tests.test_clamp"}, "", false},
	} {
		if got := fileLevel(c.t, c.file); got != c.want {
			t.Errorf("fileLevel(%+v, %q) = %v, want %v", c.t, c.file, got, c.want)
		}
	}
}

func FuzzMatchesAny(f *testing.F) {
	f.Add("example.com/calc.TestMul/neg", "TestMul")
	f.Add("tests/test_calc.py::test_div[0-1]", "test_div")
	f.Add("a > b > c", "b > c")
	f.Add("[", "*")
	f.Fuzz(func(t *testing.T, id, s string) {
		got := matchesAny(id, map[string]bool{s: true})
		if id == s && s != "" && s != "*" && s != "/" && !got && id[len(id)-1] != '*' && id[len(id)-1] != '/' && !(len(id) > 0 && id[len(id)-1] == ']') {
			t.Errorf("matchesAny(%q, {%q}) = false", id, s)
		}
	})
}

func TestJudgeOnBase(t *testing.T) {
	t.Parallel()
	r := &collectors.Result{Tests: &collectors.Tests{}}
	r.Tests.Add(collectors.Test{ID: "m/p.TestOptions", Name: "TestOptions", Outcome: collectors.Failed, Message: "panic: unsupported"})
	r.Tests.Add(collectors.Test{ID: "m/p.TestOptions/A", Name: "TestOptions/A", Outcome: collectors.Passed})
	r.Tests.Add(collectors.Test{ID: "m/p.TestSkip", Name: "TestSkip", Outcome: collectors.Skipped})
	r.Tests.Add(collectors.Test{ID: "tests.test_new", Name: "tests.test_new", Outcome: collectors.Errored, Message: "ImportError: cannot import name 'clamp'"})
	r.BuildFailures = []collectors.BuildFailure{{Package: "m/q", Output: "./q_test.go:3:2: undefined: Neg"}}
	for _, c := range []struct{ id, file, want, detail string }{
		{"m/p.TestOptions/A", "", gate.NotWitnessing, ""},
		{"m/p.TestOptions/B#01", "", gate.Witnessed, "not reached: m/p.TestOptions failed"},
		{"m/p.TestSkip", "", gate.NotWitnessing, "skipped"},
		{"m/q.TestNeg", "", gate.Witnessed, "undefined: Neg"},
		{"tests.test_new.test_clamp", "tests/test_new.py", gate.Witnessed, "ImportError"},
		{"m/r.TestOther", "", gate.WitnessUnmeasured, "reported nothing"},
	} {
		got, detail := judgeOnBase(c.id, c.file, r)
		if got != c.want || !strings.Contains(detail, c.detail) {
			t.Errorf("judgeOnBase(%q) = %q, %q; want %q with %q", c.id, got, detail, c.want, c.detail)
		}
	}
}
