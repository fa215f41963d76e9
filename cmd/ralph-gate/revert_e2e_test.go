package main

import (
	"strings"
	"testing"
)

// A test deleted with the commit that brought it (a revert) or with the
// function it tested is medium when it passed at BASE, in compare as in
// analyze; when it failed at BASE the runs show what went: the feature that
// failed, which blocks in compare (analyze, which runs nothing, cannot tell).
func TestCompareRevertAndFeatureRemoval(t *testing.T) {
	t.Parallel()
	const mulTest = "\nfunc TestMultiply(t *testing.T) {\n\tif got := Multiply(2, 3); got != 6 {\n\t\tt.Errorf(\"Multiply(2, 3) = %d, want 6\", got)\n\t}\n}\n"
	mulSrc := func(body string) string {
		return "\n// Multiply multiplies.\nfunc Multiply(a, b int) int { return " + body + " }\n"
	}
	for _, c := range []struct {
		name    string
		body    string // Multiply's body at BASE: "a * b" passes, "a + b" fails
		revert  bool   // git revert, else a plain commit deleting both
		compare int    // compare's exit code
	}{
		{"revert of a passing feature", "a * b", true, 0},
		{"revert of the feature that failed", "a + b", true, 1},
		{"feature removed with its passing test", "a * b", false, 0},
		{"feature that failed removed with its test", "a + b", false, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := goModule(t)
			r.write("calc.go", calcSrc+mulSrc(c.body))
			r.write("calc_test.go", calcTest+mulTest)
			base := r.commit("add Multiply")
			if c.revert {
				r.git("revert", "--no-edit", base)
			} else {
				r.write("calc.go", calcSrc)
				r.write("calc_test.go", calcTest)
				r.commit("drop Multiply")
			}
			an := runGate(t, r.dir, "", "analyze", "--format", "json", base, "HEAD")
			if an.code != 0 {
				t.Errorf("analyze: exit %d, want 0 (medium)\n%s\n%s", an.code, an.stdout, an.stderr)
			}
			res := runGate(t, r.dir, "", "compare", "--format", "json", base, "HEAD")
			if res.code != c.compare {
				t.Fatalf("compare: exit %d, want %d\n%s\n%s", res.code, c.compare, res.stdout, res.stderr)
			}
			rep := parseCompare(t, res.stdout)
			var got []string
			for _, f := range rep.Findings {
				if f.Net && f.Type == "test_deletion" {
					got = append(got, f.Severity+" "+f.Rule+": "+f.Message)
				}
			}
			want := "medium"
			if c.compare == 1 {
				want = "critical"
			}
			if len(got) != 1 || !strings.HasPrefix(got[0], want+" ") || !strings.Contains(got[0], "TestMultiply") {
				t.Errorf("compare's test deletions: %q, want one %s deletion of TestMultiply", got, want)
			}
		})
	}
}
