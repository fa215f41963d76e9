package jsts

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// TestFuncs: a production file's named functions, qualified by class and
// enclosing function, with their own exits (a callback's are its own) and
// the branches that answer a literal with a literal, callbacks' included;
// a test file has none.
func TestFuncs(t *testing.T) {
	src := `export class Parser {
  parse(s: string): number {
    if (!s) {
      throw new Error('empty')
    }
    if (s === 'five') return 5
    if (s === MAX_NAME) { return 9 }
    if (6 == s) { kind = 'six' }
    items.forEach((x) => { if (x.id === 7) return; })
    switch (this.mode) {
      case 3:
      case 4:
        return true
      case Mode.X:
        return 1
    }
    return
  }
}

const helper = async (x) => {
  function inner() { return null }
  throw new Error('not implemented')
}
`
	got, err := New().Extract("src/parse.ts", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []testscan.Func{
		{Name: "Parser.parse", Line: 2, Exits: []testscan.Exit{
			{Line: 4, Kind: testscan.ExitError, Text: "throw new Error(\"empty\")"},
			{Line: 6, Kind: testscan.ExitOther, Text: "return 5"},
			{Line: 7, Kind: testscan.ExitOther, Text: "return 9"},
			{Line: 13, Kind: testscan.ExitOther, Text: "return true"},
			{Line: 15, Kind: testscan.ExitOther, Text: "return 1"},
			{Line: 17, Kind: testscan.ExitEmpty, Text: "return"},
		}, Branches: []testscan.Branch{
			{Line: 6, Subject: "s", Literal: `"five"`, Answer: "5"},
			{Line: 8, Subject: "s", Literal: "6", Answer: `"six"`},
			{Line: 11, Subject: "this.mode", Literal: "3", Answer: "true", Case: true},
			{Line: 12, Subject: "this.mode", Literal: "4", Answer: "true", Case: true},
		}},
		{Name: "helper", Line: 21},
		{Name: "helper.inner", Line: 22, Exits: []testscan.Exit{{Line: 22, Kind: testscan.ExitEmpty, Text: "return null"}}},
	}
	if diff := cmp.Diff(want, got.Funcs); diff != "" {
		t.Errorf("funcs (-want +got):\n%s", diff)
	}
	if f, _ := New().Extract("src/parse.test.ts", []byte(src)); len(f.Funcs) != 0 {
		t.Errorf("a test file's funcs: %+v", f.Funcs)
	}
}
