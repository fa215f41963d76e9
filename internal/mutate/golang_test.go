package mutate

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const goSample = `package calc

import (
	"errors"
	"fmt"
	"log"
)

const limit = 1<<10 - 1

// Clamp keeps v within [lo, hi].
func Clamp(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v >= hi {
		return hi
	}
	return v
}

func Valid(name string, ok bool) bool {
	if ok && name != "" {
		log.Printf("valid %s", name)
		return true
	}
	if !ok {
		return false
	}
	return isName(name)
}

func isName(s string) bool { return s != "x < y" } // a < in a string

func Sum(xs []int) (int, error) {
	total := 0
	for i := 0; i < len(xs); i++ {
		total += xs[i]
	}
	if total > limit {
		return 0, fmt.Errorf("sum %d over %d", total, limit)
	}
	if total == 0 {
		return 0, errors.New("empty")
	}
	defer fmt.Println("done")
	return total * 2, nil
}

type T struct{ name string }

func (t T) Name() string { return t.name }

func Greet(who string) string {
	msg := "hello, " + who
	notify(msg)
	return msg
}

func notify(string) {}
`

func lineOf(src, text string) int {
	for i, l := range strings.Split(src, "\n") {
		if strings.Contains(l, text) {
			return i + 1
		}
	}
	panic("no line " + text)
}

func TestGoMutants(t *testing.T) {
	cases := []struct {
		line, op, mutated string // "" op: no mutant
	}{
		{"if v < lo {", "relational", "if v >= lo {"},
		{"if v >= hi {", "relational", "if v < hi {"},
		{"if ok && name", "relational", `if ok && name == "" {`},
		{`log.Printf("valid`, "", ""},
		{"return true", "zero-return", "return false"},
		{"if !ok {", "negate-condition", "if ok {"},
		{"return isName(name)", "zero-return", "return false"},
		{"return s != \"x < y\"", "relational", `func isName(s string) bool { return s == "x < y" } // a < in a string`},
		{"total := 0", "", ""},
		{"for i := 0;", "boundary", "for i := 0; i <= len(xs); i++ {"},
		{"total += xs[i]", "increment", "total -= xs[i]"},
		{"if total > limit", "relational", "if total <= limit {"},
		{"return 0, fmt.Errorf", "", ""},
		{"if total == 0", "relational", "if total != 0 {"},
		{"return 0, errors.New", "", ""},
		{"defer fmt.Println", "", ""},
		{"return total * 2, nil", "arithmetic", "return total / 2, nil"},
		{"const limit", "", ""},
		{"func (t T) Name()", "", ""},
		{`msg := "hello, " + who`, "", ""},
		{"notify(msg)", "remove-statement", ""},
		{"return msg", "zero-return", `return ""`},
	}
	var lines []int
	for _, c := range cases {
		lines = append(lines, lineOf(goSample, c.line))
	}
	lines = append(lines, 0, 10_000) // out of range: ignored
	ms, err := For("calc/calc.go").Mutants("calc/calc.go", []byte(goSample), lines, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[int]Mutant{}
	for _, m := range ms {
		if _, dup := got[m.Line]; dup {
			t.Errorf("two mutants on line %d", m.Line)
		}
		got[m.Line] = m
	}
	for _, c := range cases {
		m, ok := got[lineOf(goSample, c.line)]
		switch {
		case c.op == "" && ok:
			t.Errorf("%q: got mutant %s %q, want none", c.line, m.Operator, m.Mutated)
		case c.op != "" && !ok:
			t.Errorf("%q: no mutant, want %s", c.line, c.op)
		case ok && (m.Operator != c.op || m.Mutated != c.mutated):
			t.Errorf("%q: got %s %q, want %s %q", c.line, m.Operator, m.Mutated, c.op, c.mutated)
		}
	}
	again, _ := For("calc/calc.go").Mutants("calc/calc.go", []byte(goSample), lines, nil)
	if len(again) != len(ms) {
		t.Fatalf("not deterministic: %d then %d mutants", len(ms), len(again))
	}
	for i := range ms {
		if string(ms[i].Src) != string(again[i].Src) {
			t.Errorf("not deterministic on line %d", ms[i].Line)
		}
	}
}

// Every mutant of the sample builds: a mutant that does not compile tests
// nothing and costs a run.
func TestGoMutantsBuild(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("go is not on PATH: ", err)
	}
	var lines []int
	for i := range strings.Count(goSample, "\n") {
		lines = append(lines, i+1)
	}
	ms, err := For("calc.go").Mutants("calc.go", []byte(goSample), lines, nil)
	if err != nil || len(ms) < 10 {
		t.Fatalf("%d mutants, %v", len(ms), err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module calc\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if err := os.WriteFile(filepath.Join(dir, "calc.go"), m.Src, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(goBin, "vet", ".")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("line %d %s %q does not build: %s", m.Line, m.Operator, m.Mutated, out)
		}
	}
}

func TestGoAridExtra(t *testing.T) {
	src := []byte("package p\n\nfunc f(a, b int) bool {\n\tmetrics.Inc(a > b)\n\treturn a > b\n}\n\nvar metrics struct{ Inc func(bool) }\n")
	arid := &Arid{Extra: []*regexp.Regexp{regexp.MustCompile(`^metrics\.`)}}
	ms, err := For("p.go").Mutants("p.go", src, []int{4, 5}, arid)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 1 || ms[0].Line != 5 || ms[0].Mutated != "return a <= b" {
		t.Fatalf("got %+v, want only line 5 mutated", ms)
	}
	if For("p_test.go") != nil {
		t.Error("a Go test file has a mutator: tests are never mutated")
	}
	if _, err := For("p.go").Mutants("p.go", []byte("package p\nfunc {"), []int{2}, nil); err == nil {
		t.Error("a file that does not parse gave no error")
	}
}

func FuzzGoMutants(f *testing.F) {
	f.Add([]byte(goSample), 14)
	f.Add([]byte("package p\nfunc f(x int) int { if x > 0 { return x * 2 }; return -x }\n"), 2)
	f.Add([]byte("package p\nvar v = func() bool { return !true || 1 < 2 }()\n"), 2)
	f.Fuzz(func(t *testing.T, src []byte, line int) {
		lines := []int{line, line + 1, line + 2}
		ms, err := For("f.go").Mutants("f.go", src, lines, nil)
		if err != nil {
			return
		}
		seen := map[int]bool{}
		for _, m := range ms {
			if seen[m.Line] {
				t.Fatalf("two mutants on line %d", m.Line)
			}
			seen[m.Line] = true
			if m.Line < line || m.Line > line+2 {
				t.Fatalf("mutant on line %d, asked %v", m.Line, lines)
			}
			if string(m.Src) == string(src) {
				t.Fatalf("mutant on line %d changes nothing", m.Line)
			}
		}
	})
}

// TestGoAridIsPerStatement: logic written on the same line as a logging
// call, or returned beside a wrapped error, is not arid; only a statement
// that is all logging or error plumbing is.
func TestGoAridIsPerStatement(t *testing.T) {
	src := []byte("package p\n\nimport (\n\t\"fmt\"\n\t\"log\"\n)\n\n" +
		"func f(total int) (int, error) {\n" +
		"\tif total >= 100 { log.Print(\"big\"); return total - 10, nil }\n" +
		"\tif total == 7 { return total > 3 && total < 9, fmt.Errorf(\"seven\") }\n" +
		"\treturn 0, fmt.Errorf(\"total %d\", total)\n" +
		"}\n")
	ms, err := For("p.go").Mutants("p.go", src, []int{9, 10, 11}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[int]string{}
	for _, m := range ms {
		got[m.Line] = m.Operator + ": " + m.Mutated
	}
	if got[9] != `boundary: if total > 100 { log.Print("big"); return total - 10, nil }` {
		t.Errorf("line 9 (logic beside a log call): %q", got[9])
	}
	if got[10] != `boundary: if total == 7 { return total >= 3 && total < 9, fmt.Errorf("seven") }` {
		t.Errorf("line 10 (logic beside a wrapped error): %q", got[10])
	}
	if _, ok := got[11]; ok {
		t.Errorf("line 11 (a zero and a wrapped error) is arid, got %q", got[11])
	}
}

// TestGoAridLoggers: a project's own logger, however spelled (urfave/cli's
// tracef, a method named for a level), is arid; printing to a writer is a
// command's output, and keeps its mutant.
func TestGoAridLoggers(t *testing.T) {
	src := []byte("package p\n\nimport (\n\t\"fmt\"\n\t\"io\"\n)\n\n" +
		"func tracef(string, ...any) {}\n\ntype c struct{}\n\nfunc (c) Debugf(string, ...any) {}\n\n" +
		"func f(w io.Writer, x c, n int) {\n" +
		"\ttracef(\"n=%d\", n)\n" +
		"\tx.Debugf(\"n=%d\", n)\n" +
		"\tfmt.Fprintf(w, \"%d\\n\", n)\n" +
		"}\n")
	ms, err := For("p.go").Mutants("p.go", src, []int{15, 16, 17}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 1 || ms[0].Line != 17 || ms[0].Operator != "remove-statement" {
		t.Errorf("got %+v; want only the Fprintf removed", ms)
	}
}
