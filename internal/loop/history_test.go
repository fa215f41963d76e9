package loop

import (
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scanners"
)

func TestFindTestMapsMeasuredIDs(t *testing.T) {
	src := []byte(`package calc

import "testing"

func TestAdd(t *testing.T) {
	for _, c := range []struct{ name string }{{"one"}} {
		t.Run(c.name, func(t *testing.T) {})
	}
}

func TestAddLarge(t *testing.T) {}
`)
	ex := scanners.ForPath("calc_test.go")
	f, err := ex.Extract("calc_test.go", src)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ id, want string }{
		{"example.com/calc.TestAdd/one", "TestAdd/one"},
		{"example.com/calc.TestAdd", "TestAdd/one"}, // a parent: its table's first case
		{"example.com/m/calc.TestAddLarge", "TestAddLarge"},
		{"calc.TestAddLarge", "TestAddLarge"},
		{"TestAddLarge", "TestAddLarge"},
		{"example.com/calc.TestSub", ""},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			got := ""
			if tc := findTest(f, tt.id); tc != nil {
				got = tc.ID
			}
			if got != tt.want {
				t.Errorf("findTest(%q) = %q, want %q", tt.id, got, tt.want)
			}
		})
	}
}

func TestCodeChanged(t *testing.T) {
	ex := scanners.ForPath("calc/calc_test.go")
	changes := func(paths ...string) []gitChange {
		var out []gitChange
		for _, p := range paths {
			out = append(out, change(p))
		}
		return out
	}
	tests := []struct {
		name  string
		paths []string
		want  string
	}{
		{"only the test", []string{"calc/calc_test.go"}, ""},
		{"a golden file and docs", []string{"calc/calc_test.go", "calc/testdata/out.golden", "README.md"}, ""},
		{"another package's code", []string{"calc/calc_test.go", "other/x.go"}, ""},
		{"the code under test", []string{"calc/calc_test.go", "calc/calc.go"}, "calc/calc.go"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := codeChanged(changes(tt.paths...), "calc/calc_test.go", ex); got != tt.want {
				t.Errorf("codeChanged = %q, want %q", got, tt.want)
			}
		})
	}
}

type gitChange = gitrepo.Change

func change(p string) gitChange {
	var c gitChange
	c.From.Path, c.To.Path = p, p
	return c
}
