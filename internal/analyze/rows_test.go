package analyze

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

func TestSubstituteRow(t *testing.T) {
	row := map[string]string{"path": `"/a"`, "x": "2"}
	for expr, want := range map[string]string{
		"path":          `"/a"`,
		"url.path":      "url.path",
		"f(x, path)":    `f(2, "/a")`,
		`g("x", x)`:     `g("x", 2)`,
		"xs[x]":         "xs[2]",
		"other":         "other",
		`url.path == x`: `url.path == 2`,
	} {
		if got := substituteRow(expr, row); got != want {
			t.Errorf("substituteRow(%q) = %q, want %q", expr, got, want)
		}
	}
}

func TestRowChecks(t *testing.T) {
	eq := func(subj, exp string) testscan.Assertion {
		return testscan.Assertion{Kind: "assert ==", Strength: testscan.Strong, Subject: subj, Expected: exp}
	}
	truthy := func(subj string) testscan.Assertion {
		return testscan.Assertion{Kind: "assert", Strength: testscan.Weak, Subject: subj}
	}
	old := &testscan.TestCase{ID: "test_q", Assertions: []testscan.Assertion{eq("url.path", `"/"`), eq("url.query", `b"a%2F"`)}}
	row := []map[string]string{{"path": `"/"`, "query": `b"a/"`}}
	tests := []struct {
		name      string
		n         *testscan.TestCase
		strict    bool
		lost      int
		rewritten []string
		ok        bool
	}{
		{"kept and rewritten", &testscan.TestCase{ID: "t[a]", Params: row,
			Assertions: []testscan.Assertion{eq("url.path", "path"), eq("url.query", "query")}}, true, 0, []string{`b"a%2F"`}, true},
		{"check made truthy", &testscan.TestCase{ID: "t[a]", Params: row,
			Assertions: []testscan.Assertion{eq("url.path", "path"), truthy("url.query")}}, true, 1, nil, true},
		{"check dropped", &testscan.TestCase{ID: "t[a]", Params: row,
			Assertions: []testscan.Assertion{eq("url.path", "path")}}, false, 1, nil, true},
		{"result named, loose", &testscan.TestCase{ID: "t[a]", Params: row,
			Assertions: []testscan.Assertion{eq("r", "path"), eq("q", "query")}}, false, 0, []string{`b"a%2F"`}, true},
		{"result named, strict", &testscan.TestCase{ID: "t[a]", Params: row,
			Assertions: []testscan.Assertion{eq("r", "path"), eq("q", "query")}}, true, 2, nil, true},
		{"not a table", &testscan.TestCase{ID: "t",
			Assertions: []testscan.Assertion{eq("url.path", "path")}}, true, 0, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lost, rewritten, ok := rowChecks(old, tt.n, tt.strict)
			if lost != tt.lost || ok != tt.ok {
				t.Errorf("lost, ok = %d, %v; want %d, %v", lost, ok, tt.lost, tt.ok)
			}
			if d := cmp.Diff(tt.rewritten, rewritten); d != "" {
				t.Errorf("rewritten (-want +got)\n%s", d)
			}
		})
	}
}

func TestRowInputs(t *testing.T) {
	eq := func(subj, exp string) testscan.Assertion {
		return testscan.Assertion{Kind: "assert ==", Strength: testscan.Strong, Subject: subj, Expected: exp}
	}
	tests := []struct {
		name string
		tc   *testscan.TestCase
		want []string
	}{
		{"url in, values out", &testscan.TestCase{Literals: []string{`"https://x/?a"`, `"/"`, `b"a"`},
			Assertions: []testscan.Assertion{eq("url.path", `"/"`), eq("url.query", `b"a"`)}}, []string{`"https://x/?a"`}},
		{"no distinct input", &testscan.TestCase{Literals: []string{`"ab"`, "2"},
			Assertions: []testscan.Assertion{eq("f(2)", `"ab"`)}}, nil},
		{"all expected", &testscan.TestCase{Literals: []string{`"hello world"`},
			Assertions: []testscan.Assertion{eq("greet()", `"hello world"`)}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, rowInputs(tt.tc)); d != "" {
				t.Errorf("(-want +got)\n%s", d)
			}
		})
	}
}

func TestFitOperandMadeFromRow(t *testing.T) {
	row := map[string]string{"expected": `"bar"`}
	if got := fitOperand(`"shout: True\n"`, `f"shout: {expected}\n"`, row, false); got != rowUnknown {
		t.Errorf("loose f-string of the row = %v, want rowUnknown", got)
	}
	if got := fitOperand(`"shout: True\n"`, `f"shout: {expected}\n"`, row, true); got != rowMissing {
		t.Errorf("strict f-string of the row = %v, want rowMissing", got)
	}
	if got := fitOperand(`"x"`, "other.attr", row, false); got != rowMissing {
		t.Errorf("another expression = %v, want rowMissing", got)
	}
}

func TestMentionsRow(t *testing.T) {
	row := map[string]string{"expected": `"bar"`, "query": `b""`}
	for expr, want := range map[string]bool{
		`f"shout: {expected}\n"`: true,
		"repr(expected)":         true,
		"url.query":              false,
		`"query"`:                false,
		`f"{url.query}"`:         false,
		"other":                  false,
		`query + b"x"`:           true,
	} {
		if got := mentionsRow(expr, row); got != want {
			t.Errorf("mentionsRow(%s) = %v, want %v", expr, got, want)
		}
	}
}
