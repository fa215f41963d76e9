package golang

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// TestFuncs: a production file's functions with the exits of those that
// return an error or panic (a closure's returns and panics are its own) and the branches that
// answer a literal with a literal; a test file has none.
func TestFuncs(t *testing.T) {
	src := `package calc

import "errors"

func (p *Parser) Parse(s string) (int, error) {
	if s == "" {
		return 0, errors.New("empty")
	}
	f := func() error { return nil }
	_ = f
	if s == "five" {
		return 5, nil
	}
	if s == MaxName || kind == reflect.Int {
		return 9, nil
	}
	switch s {
	case "six", "VI":
		return 6, nil
	case Seven:
		return 7, nil
	}
	switch {
	case p.mode == 3:
		s = "three"
	}
	return len(s), nil
}

func Name() string { return "calc" }

func init() {}

func load(p string) error {
	b, err := read(p)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return wrap(err)
	}
	if len(b) == 0 {
		return ErrEmpty
	}
	if b[0] == '#' {
		return &SyntaxError{Line: 1}
	}
	err = apply(b)
	return err
}

// Old does nothing any more.
//
// Deprecated: use New.
func Old() error { return nil }

func (c *Ctx) Render(r Renderer) {
	defer func() { panic("inner") }()
	if err := r.Render(c.w); err != nil {
		panic(err)
	}
}
`
	got, err := New().Extract("calc/parse.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []testscan.Func{
		{Name: "Parser.Parse", Line: 5, Exits: []testscan.Exit{
			{Line: 7, Kind: testscan.ExitError, Text: `return 0, errors.New("empty")`, Values: []string{"0"}},
			{Line: 12, Kind: testscan.ExitEmpty, Text: "return 5, nil", Values: []string{"5"}},
			{Line: 15, Kind: testscan.ExitEmpty, Text: "return 9, nil", Values: []string{"9"}},
			{Line: 19, Kind: testscan.ExitEmpty, Text: "return 6, nil", Values: []string{"6"}},
			{Line: 21, Kind: testscan.ExitEmpty, Text: "return 7, nil", Values: []string{"7"}},
			{Line: 27, Kind: testscan.ExitEmpty, Text: "return len(s), nil", Values: []string{"len(s)"}},
		}, Branches: []testscan.Branch{
			{Line: 11, Subject: "s", Literal: `"five"`, Answer: "5"},
			{Line: 18, Subject: "s", Literal: `"six", "VI"`, Answer: "6", Case: true},
			{Line: 24, Subject: "p.mode", Literal: "3", Answer: `"three"`, Case: true},
		}},
		{Name: "Name", Line: 30},
		{Name: "load", Line: 34, Exits: []testscan.Exit{
			{Line: 37, Kind: testscan.ExitError, Text: "return wrap(err)"},
			{Line: 40, Kind: testscan.ExitError, Text: "return ErrEmpty"},
			{Line: 43, Kind: testscan.ExitError, Text: "return &SyntaxError{Line: 1}"},
			{Line: 46, Kind: testscan.ExitOther, Text: "return err"},
		}},
		{Name: "Old", Line: 52},
		// A panic is an error exit of any function; a closure's is its own.
		{Name: "Ctx.Render", Line: 54, Exits: []testscan.Exit{
			{Line: 57, Kind: testscan.ExitError, Text: "panic(err)"},
		}},
	}
	if diff := cmp.Diff(want, got.Funcs); diff != "" {
		t.Errorf("funcs (-want +got):\n%s", diff)
	}
	if f, _ := New().Extract("calc/parse_test.go", []byte(src)); len(f.Funcs) != 0 {
		t.Errorf("a test file's funcs: %+v", f.Funcs)
	}
}
