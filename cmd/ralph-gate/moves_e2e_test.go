package main

import (
	"strings"
	"testing"
)

// A Go test moved to another package, with or without a new name, is the
// same test: compare finds its code running at HEAD, so neither the id that
// vanished nor the coverage go test no longer credits to the package it left
// blocks. Moves that stop the code from running, or that test a copy of the
// code, still do.
func TestCompareGoTestMovedToAnotherPackage(t *testing.T) {
	t.Parallel()
	subTest := func(pkg, name, call string) string {
		return "package " + pkg + "\n\nimport (\n\t\"testing\"\n\n\t\"example.com/calc\"\n)\n\n" +
			"func " + name + "(t *testing.T) {\n\tif got := " + call + "(5, 3); got != 2 {\n\t\tt.Errorf(\"Sub(5, 3) = %d, want 2\", got)\n\t}\n}\n"
	}
	const unused = "\nfunc unused() int {\n\tx := 1\n\treturn x\n}\n"
	cases := []struct {
		name   string
		change func(r *repo)
		block  bool
		// want is a rule that must be reported (net), if any; not one that
		// must not.
		want, not string
	}{
		{"moved", func(r *repo) {
			r.write("calc_test.go", calcTestNoSub)
			r.write("arith/sub_test.go", subTest("arith_test", "TestSub", "calc.Sub"))
		}, false, "coverage-tests-moved", ""},
		{"moved and renamed", func(r *repo) {
			r.write("calc_test.go", calcTestNoSub)
			r.write("arith/sub_test.go", subTest("arith_test", "TestSubtract", "calc.Sub"))
		}, false, "coverage-tests-moved", ""},
		{"moved where nothing runs it", func(r *repo) {
			r.write("calc_test.go", calcTestNoSub)
			r.write("arith/sub_test.go", "//go:build never\n\n"+subTest("arith_test", "TestSubtract", "calc.Sub"))
			// The static reading sees the move out of reach; the runs
			// confirm it (one test-deleted finding, evidence measured).
		}, true, "test-deleted", ""},
		{"moved to test a copy of the code", func(r *repo) {
			r.write("calc_test.go", calcTestNoSub)
			r.write("arith/arith.go", "package arith\n\n// Sub subtracts.\nfunc Sub(a, b int) int { return a - b }\n")
			r.write("arith/sub_test.go", strings.Replace(strings.Replace(subTest("arith", "TestSub", "Sub"), "\n\t\"example.com/calc\"\n", "", 1), "\n\n)", ")", 1))
		}, true, "coverage-dropped", ""},
		// The test goes with the feature it tested and passed at BASE: a
		// removal to confirm (medium test-deleted-with-code, its check
		// was on what Sub returned; it blocks when the test failed at
		// BASE, see TestCompareRevertAndFeatureRemoval), and the coverage
		// that fell only because covered code went is no coverage
		// regression.
		{"deleted with the code it covered", func(r *repo) {
			r.write("calc_test.go", calcTestNoSub)
			r.write("calc.go", "package calc\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n"+unused)
		}, false, "coverage-dropped-covered-code-removed", "coverage-dropped"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := goModule(t)
			r.write("arith/arith.go", "package arith\n")
			r.write("calc.go", calcSrc+unused)
			r.commit("arith")
			base := r.git("rev-parse", "HEAD")
			c.change(r)
			r.commit(c.name)
			res := runGate(t, r.dir, "", "compare", "--format", "json", base, "HEAD")
			rep := parseCompare(t, res.stdout)
			if want := map[bool]int{true: 1, false: 0}[c.block]; res.code != want {
				t.Fatalf("exit %d, want %d\n%s\n%s", res.code, want, res.stdout, res.stderr)
			}
			for _, f := range rep.Findings {
				if !c.block && f.Net && (f.Severity == "high" || f.Severity == "critical") {
					t.Errorf("%s finding on an honest change: %+v", f.Severity, f)
				}
			}
			if c.want != "" && !rep.has("", c.want, "") {
				t.Errorf("no %s finding: %+v", c.want, rep.Findings)
			}
			if c.not != "" && rep.has("", c.not, "") {
				t.Errorf("a %s finding: %+v", c.not, rep.Findings)
			}
		})
	}
}
