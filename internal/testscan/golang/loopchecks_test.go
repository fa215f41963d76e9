package golang

import (
	"testing"
)

// A check inside a range over a literal table is the check of each row.
func TestLoopChecks(t *testing.T) {
	src := `package p

import "testing"

const onetwo = "one two"

func TestHooks(t *testing.T) {
	pre, post := run()
	for _, v := range []struct {
		name string
		got  string
	}{
		{"pre", pre},
		{"post", post},
		{"const", "one two"},
	} {
		if v.got != onetwo {
			t.Errorf("Expected %s %q, got %q", v.name, onetwo, v.got)
		}
	}
	for _, v := range cases() {
		if v.got != onetwo {
			t.Error(v.name)
		}
	}
}
`
	f, err := New().Extract("p_test.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range f.Tests[0].Assertions {
		got = append(got, a.Subject+" "+a.Strength.String())
	}
	want := []string{"pre strong", "post strong", `"one two" trivial`, "v.got strong"}
	if len(got) != len(want) {
		t.Fatalf("assertions = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("assertion %d = %q, want %q", i, got[i], want[i])
		}
	}
}

// A closure's checks count once per call.
func TestClosureChecksAtEachCall(t *testing.T) {
	src := `package p

import "testing"

func TestSizes(t *testing.T) {
	check := func(n int) {
		if n < 0 {
			t.Fatal(n)
		}
	}
	check(size(1))
	check(size(2))
	check(size(3))
	once := func() {
		if size(4) != 4 {
			t.Error("4")
		}
	}
	once()
}
`
	f, err := New().Extract("p_test.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(f.Tests[0].Assertions); n != 4 {
		t.Errorf("assertions = %d, want 4 (3 calls of check, 1 of once): %+v", n, f.Tests[0].Assertions)
	}
}

// The checks of a table row's function literal run in the subtest of that
// row that calls it, not in the parent.
func TestRowFuncChecks(t *testing.T) {
	src := `package p

import "testing"

func TestReplay(t *testing.T) {
	for _, tc := range []struct {
		name   string
		verify func(*testing.T, int)
	}{
		{name: "float", verify: func(t *testing.T, got int) {
			if got != 1 {
				t.Error("float")
			}
		}},
		{name: "histogram", verify: func(t *testing.T, got int) {
			if got != 2 {
				t.Error("histogram")
			}
			if got < 0 {
				t.Error("negative")
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.verify(t, replay(tc.name))
		})
	}
}
`
	f, err := New().Extract("p_test.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, tc := range f.Tests {
		got[tc.ID] = len(tc.Assertions)
	}
	want := map[string]int{"TestReplay/float": 1, "TestReplay/histogram": 2}
	if len(got) != len(want) || got["TestReplay/float"] != 1 || got["TestReplay/histogram"] != 2 {
		t.Errorf("checks per test = %v, want %v (and no parent test of its own)", got, want)
	}
}

// A check inside a range over a literal table of a value the loop's body
// computed from the row is the check of each distinct row; a check of a
// value set before the loop stays one check.
func TestDerivedLoopChecks(t *testing.T) {
	src := `package p

import "testing"

func TestShells(t *testing.T) {
	root, err := setup()
	for _, shell := range []string{"bash", "fish", "zsh", "fish"} {
		var cmd *Command
		if cmd, _, err = root.Find([]string{"completion", shell}); err != nil {
			t.Errorf("find %s: %v", shell, err)
		}
		flag := cmd.Flags().Lookup("no-descriptions")
		if flag == nil {
			t.Errorf("missing flag for %s", shell)
		}
		if got := describe(shell); got == "" {
			t.Error(shell)
		}
		if root == nil {
			t.Fatal("no root")
		}
	}
	for _, shell := range []string{"bash"} {
		if root.Lookup(shell) == nil {
			t.Error(shell)
		}
	}
	for _, shell := range shells() {
		if root.Lookup(shell) == nil {
			t.Error(shell)
		}
	}
	for _, tc := range []struct{ in string }{{"a"}, {"b"}} {
		out := run(tc.in)
		if out == "" {
			t.Error(tc.in)
		}
	}
}
`
	f, err := New().Extract("p_test.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, a := range f.Tests[0].Assertions {
		count[a.Subject]++
	}
	want := map[string]int{"err": 3, "flag": 3, "got": 3, "root": 1, "root.Lookup(shell)": 2, "out": 1}
	for k, v := range want {
		if count[k] != v {
			t.Errorf("checks of %s = %d, want %d (all: %v)", k, count[k], v, count)
		}
	}
}

// TestStructRowsBehindPointers: a table of &T{...} rows is a table of
// structs, as its {...} spelling in a []*T is (urfave/cli 510c407e41, a
// lint fix): both read the same checks.
func TestStructRowsBehindPointers(t *testing.T) {
	const head = "package p\n\nimport \"testing\"\n\ntype tc struct{ in, want string }\n\nfunc TestT(t *testing.T) {\n\tcases := []*tc{\n"
	const tail = "\t}\n\tfor i, v := range cases {\n\t\tif got := run(v.in); got != v.want {\n\t\t\tt.Errorf(\"%d: %s\", i, got)\n\t\t}\n\t}\n}\n"
	counts := map[string]int{}
	for _, rows := range []string{
		"\t\t&tc{in: \"a\", want: \"A\"},\n\t\t&tc{in: \"b\", want: \"B\"},\n\t\t(&tc{in: \"c\", want: \"C\"}),\n",
		"\t\t{in: \"a\", want: \"A\"},\n\t\t{in: \"b\", want: \"B\"},\n\t\t{in: \"c\", want: \"C\"},\n",
	} {
		f, err := New().Extract("p_test.go", []byte(head+rows+tail))
		if err != nil {
			t.Fatal(err)
		}
		counts[rows] = len(f.Tests[0].Assertions)
	}
	if len(counts) != 2 {
		t.Fatal("want two spellings")
	}
	var n []int
	for _, c := range counts {
		n = append(n, c)
	}
	if n[0] != n[1] {
		t.Errorf("checks: &tc{...} rows and {...} rows differ: %v", counts)
	}
}

func TestReadsAny(t *testing.T) {
	names := map[string]bool{"shell": true, "cmd": true}
	for s, want := range map[string]bool{
		"cmd.Flags()":                   true,
		"has(root,shell)":               true,
		"root.shell":                    false,
		`strings.Contains(out,"shell")`: false,
		"shell2":                        false,
		"x[shell]":                      true,
		"":                              false,
	} {
		if got := readsAny(s, names); got != want {
			t.Errorf("readsAny(%q) = %v, want %v", s, got, want)
		}
	}
}
