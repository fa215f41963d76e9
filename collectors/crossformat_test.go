package collectors

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

// TestOneRunManyFormats reads the reports that one real run wrote in several
// formats and checks that they agree with each other and with what each format
// states: the jest run of testdata/junit/jest-junit.cmd (JUnit, LCOV and
// Cobertura, text-summary "Lines 66.66% ( 6/9 )"), and the Go run of
// testdata/gotest/sample-module.txtar (go test -json, its cover profile, the
// gotestsum JUnit of the same module, and gocover-cobertura of the profile).
func TestOneRunManyFormats(t *testing.T) {
	parse := func(format, file string) *Result {
		t.Helper()
		p, err := New(format)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(filepath.Join("testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		r, err := p.Parse(file, f)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	pct := func(r *Result) float64 {
		t.Helper()
		v, ok := r.Coverage.Percent()
		if !ok {
			t.Fatal("no coverage")
		}
		return v
	}

	// jest: one run, three formats.
	junit := parse("junit", "junit/jest-junit.xml")
	c, _ := junit.TestCounts()
	if c.Total != 5 || c.Passed != 3 || c.Failed != 1 || c.Skipped != 1 {
		t.Errorf("jest-junit counts = %+v, want 5 tests: 3 passed, 1 failed, 1 skipped", c)
	}
	lcov := parse("lcov", "lcov/jest.info")
	cob := parse("cobertura", "cobertura/jest.xml")
	if got := pct(lcov); math.Abs(got-600.0/9) > 1e-9 {
		t.Errorf("jest LCOV = %.4f%%, want 6/9 lines", got)
	}
	if got := pct(cob); math.Abs(got-66.66) > 1e-9 {
		t.Errorf("jest Cobertura = %.4f%%, want the stated line-rate 0.6666", got)
	}

	// Go: go test -json and gotestsum's JUnit of the same module count the same
	// tests; the cover profile gives go tool cover -func's total.
	gotest := parse("gotest", "gotest/go-test-json.json")
	gj := parse("junit", "junit/gotestsum.xml")
	a, _ := gotest.TestCounts()
	b, _ := gj.TestCounts()
	if a.Total != b.Total || a.Passed != b.Passed || a.Skipped != b.Skipped || a.Failed+a.Errored != b.Failed+b.Errored {
		t.Errorf("go test -json %+v and gotestsum JUnit %+v disagree", a, b)
	}
	if got := pct(parse("coverprofile", "coverprofile/go-test.out")); math.Abs(got-38.46) > 0.05 {
		t.Errorf("cover profile total = %.2f%%, want go tool cover -func's 38.5%%", got)
	}
	if cob := parse("cobertura", "cobertura/gocover-cobertura.xml"); cob.Coverage == nil || len(cob.Coverage.Files) == 0 {
		t.Error("gocover-cobertura of the same profile has no files")
	}
}
