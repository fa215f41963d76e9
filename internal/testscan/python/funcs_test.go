package python

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// TestFuncs: a production module's functions, named by class and
// enclosing function, with their own exits (when one is an error or an
// empty result) and the branches that answer a literal with a literal; a
// test file has none.
func TestFuncs(t *testing.T) {
	src := `class Parser:
    def parse(self, s):
        if not s:
            raise ValueError("empty")
        if s == "five":
            return 5
        elif (s == MAX_NAME):
            return 9
        elif 6 == s:
            kind = "six"
        match self.mode:
            case 3 | 4:
                return True
            case Mode.X:
                return 1
        def inner():
            return None
        return len(s)

    def stub(self):
        raise NotImplementedError


def gen():
    raise StopIteration
`
	got, err := New().Extract("pkg/parse.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []testscan.Func{
		{Name: "Parser.parse", Line: 2, Exits: []testscan.Exit{
			{Line: 4, Kind: testscan.ExitError, Text: `raise ValueError("empty")`},
			{Line: 6, Kind: testscan.ExitOther, Text: "return 5"},
			{Line: 8, Kind: testscan.ExitOther, Text: "return 9"},
			{Line: 13, Kind: testscan.ExitOther, Text: "return True"},
			{Line: 15, Kind: testscan.ExitOther, Text: "return 1"},
			{Line: 18, Kind: testscan.ExitOther, Text: "return len(s)"},
		}, Branches: []testscan.Branch{
			{Line: 5, Subject: "s", Literal: `"five"`, Answer: "5"},
			{Line: 9, Subject: "s", Literal: "6", Answer: `"six"`},
			{Line: 12, Subject: "self.mode", Literal: "3, 4", Answer: "True", Case: true},
		}},
		{Name: "Parser.parse.inner", Line: 16, Exits: []testscan.Exit{{Line: 17, Kind: testscan.ExitEmpty, Text: "return None"}}},
		{Name: "Parser.stub", Line: 20},
		{Name: "gen", Line: 24},
	}
	if diff := cmp.Diff(want, got.Funcs); diff != "" {
		t.Errorf("funcs (-want +got):\n%s", diff)
	}
	if f, _ := New().Extract("tests/test_parse.py", []byte(src)); len(f.Funcs) != 0 {
		t.Errorf("a test file's funcs: %+v", f.Funcs)
	}
}
