package collectors

import (
	"bufio"
	"encoding/xml"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// stated is what a fixture's producer itself says about the run: the tool's
// own summary line or the report's totals. Nil fields are not checked.
type stated struct {
	tests    *TestCounts
	coverage *float64 // percent, compared to 0.01
	// branches is the branch coverage in percent, compared to 0.01; nil
	// for a report without branch data, which must say so (ok false).
	branches *float64
	lint     *[2]int // errors, warnings
	types    *[2]int
	builds   int
}

func counts(total, passed, failed, skipped, errored int) *TestCounts {
	return &TestCounts{Total: total, Passed: passed, Failed: failed, Skipped: skipped, Errored: errored}
}

func pct(v float64) *float64 { return &v }

func diag(errs, warns int) *[2]int { return &[2]int{errs, warns} }

// TestFixtures parses every report recorded from a real tool and checks its
// totals against what the tool said (the .cmd files quote the summaries),
// and its full result against a golden file (go test -update rewrites them).
func TestFixtures(t *testing.T) {
	tests := []struct {
		format, file string
		want         stated
	}{
		// go test -json: calc has 4 passing, TestSub failing, TestSlow skipped;
		// broken does not build and counts as one failed TestMain.
		{"gotest", "go-test-json.json", stated{tests: counts(7, 4, 2, 1, 0), builds: 1}},
		{"gotest", "gotestsum.json", stated{tests: counts(7, 4, 2, 1, 0), builds: 1}},
		// A test binary that exits in the middle (syscall.Exit(0)): go test
		// says ok; the 3 tests seen pass, the one after them is missing,
		// and the package's evidence does not add up (see the golden file).
		{"gotest", "go-test-json-exit-early.json", stated{tests: counts(3, 3, 0, 0, 0)}},
		// cargo test: lib 3 passed, 1 failed, 1 ignored; tests/api.rs and
		// the doctest 1 passed each. A binary that exits in a test
		// (std::process::exit(0)) reports nothing after "running 2 tests",
		// or, run serially, cuts the exiting test's line off: cargo exits
		// 0 either way, and the golden files hold the integrity problem.
		// A crate that does not compile is one failed "(build)" test.
		{"cargotest", "cargo-test.txt", stated{tests: counts(7, 5, 1, 1, 0)}},
		{"cargotest", "cargo-test-exit-early.txt", stated{tests: counts(0, 0, 0, 0, 0)}},
		{"cargotest", "cargo-test-exit-early-serial.txt", stated{tests: counts(2, 1, 1, 0, 0)}},
		{"cargotest", "cargo-test-no-build.txt", stated{tests: counts(1, 0, 1, 0, 0), builds: 1}},
		// mvn test: the log adds to the Surefire reports what they cannot
		// hold. A forked JVM that died in a test class (System.exit(0))
		// is an integrity problem naming the class; a module whose tests
		// do not compile, or whose dependency cannot be resolved, is one
		// failed "(build)" test; a module the reactor skipped is an
		// integrity problem.
		{"maven", "mvn-test.txt", stated{tests: counts(0, 0, 0, 0, 0)}},
		{"maven", "mvn-test-exit.txt", stated{tests: counts(0, 0, 0, 0, 0)}},
		{"maven", "mvn-test-exit-inproc.txt", stated{tests: counts(0, 0, 0, 0, 0)}},
		{"maven", "mvn-test-no-build.txt", stated{tests: counts(1, 0, 1, 0, 0), builds: 1}},
		{"maven", "mvn-test-unresolved.txt", stated{tests: counts(1, 0, 1, 0, 0), builds: 1}},
		// gradle test: a project whose tests do not compile, or whose
		// dependency cannot be resolved, is one failed "(build)" test; a
		// test that calls System.exit(0) leaves no trace in the log
		// (BUILD SUCCESSFUL), only classes without reports.
		{"gradle", "gradle-test.txt", stated{tests: counts(0, 0, 0, 0, 0)}},
		{"gradle", "gradle-test-exit.txt", stated{tests: counts(0, 0, 0, 0, 0)}},
		{"gradle", "gradle-test-no-build.txt", stated{tests: counts(1, 0, 1, 0, 0), builds: 1}},
		{"gradle", "gradle-test-unresolved.txt", stated{tests: counts(1, 0, 1, 0, 0), builds: 1}},
		{"gradle", "gradle-test-crash.txt", stated{tests: counts(0, 0, 0, 0, 0)}},
		// JUnit: each suite's own attributes, summed over the test cases.
		{"junit", "gradle-ex.CalcTest.xml", stated{tests: counts(2, 2, 0, 0, 0)}},
		{"junit", "gradle-ex.FailTest.xml", stated{tests: counts(3, 0, 2, 1, 0)}}, // "5 tests completed, 2 failed, 1 skipped"
		{"junit", "surefire-ex.CalcTest.xml", stated{tests: counts(2, 2, 0, 0, 0)}},
		{"junit", "surefire-ex.FailTest.xml", stated{tests: counts(3, 0, 1, 1, 1)}},
		{"junit", "gotestsum.xml", stated{tests: counts(7, 4, 2, 1, 0)}},
		{"junit", "jest-junit.xml", stated{tests: counts(5, 3, 1, 1, 0)}},
		{"junit", "vitest.xml", stated{tests: counts(5, 3, 1, 1, 0)}},
		{"junit", "node-test.xml", stated{tests: counts(4, 2, 1, 1, 0)}},
		{"junit", "pytest-xunit2.xml", stated{tests: counts(7, 4, 1, 1, 1)}},
		{"junit", "pytest-xunit1.xml", stated{tests: counts(7, 4, 1, 1, 1)}},
		// go tool cover -func prints total 38.5%, 5 of 13 statements (also
		// checked live in TestGoLive); a cover profile has no branch data.
		{"coverprofile", "go-test.out", stated{coverage: pct(100 * 5.0 / 13)}},
		// LCOV: the tools' text-summary "Lines" and "Branches" figures, or
		// the BRF/BRH each producer wrote.
		{"lcov", "jest.info", stated{coverage: pct(100 * 6.0 / 9), branches: pct(100 * 2.0 / 4)}},
		{"lcov", "vitest-v8.info", stated{coverage: pct(100 * 12.0 / 18), branches: pct(100)}},
		{"lcov", "c8.info", stated{coverage: pct(100 * 17.0 / 23), branches: pct(100)}},
		{"lcov", "c8-branches.info", stated{coverage: pct(100 * 23.0 / 29), branches: pct(100 * 6.0 / 11)}},
		{"lcov", "coverage-py.info", stated{coverage: pct(100 * 29.0 / 34), branches: pct(100 * 10.0 / 12)}},
		{"lcov", "coverage-py-branches.info", stated{coverage: pct(100 * 25.0 / 31), branches: pct(100 * 9.0 / 16)}},
		// Cobertura: the root line-rate and branch-rate; gocover-cobertura
		// writes branch-rate="0" with branches-valid="0": no branch data.
		{"cobertura", "jest.xml", stated{coverage: pct(66.66), branches: pct(50)}},
		{"cobertura", "vitest-v8.xml", stated{coverage: pct(66.66), branches: pct(100)}},
		{"cobertura", "c8-branches.xml", stated{coverage: pct(79.31), branches: pct(54.54)}},
		{"cobertura", "coverage-py.xml", stated{coverage: pct(85.29), branches: pct(83.33)}},
		{"cobertura", "coverage-py-branches.xml", stated{coverage: pct(80.65), branches: pct(56.25)}},
		{"cobertura", "gocover-cobertura.xml", stated{coverage: pct(33.333334)}},
		// Lint: golangci-lint found one errcheck error and one staticcheck
		// warning; eslint one error, one warning, one parse error and one
		// suppressed warning.
		{"sarif", "golangci-lint.sarif", stated{lint: diag(1, 1)}},
		{"sarif", "eslint.sarif", stated{lint: diag(2, 1)}},
		{"checkstyle", "golangci-lint.xml", stated{lint: diag(1, 1)}},
		{"checkstyle", "eslint.xml", stated{lint: diag(2, 1)}},
		{"eslint", "eslint.json", stated{lint: diag(2, 1)}},
		{"golangci", "golangci-lint.json", stated{lint: diag(1, 1)}},
		{"golangci", "golangci-lint-stdout.json", stated{lint: diag(1, 1)}},
		{"golangci", "golangci-lint-typecheck.json", stated{lint: diag(1, 0)}},
		// tsc: "Found 4 errors in 2 files." / "Found 1 error."
		{"tsc", "plain.txt", stated{types: diag(4, 0)}},
		{"tsc", "pretty.txt", stated{types: diag(4, 0)}},
		{"tsc", "no-inputs-plain.txt", stated{types: diag(1, 0)}},
		{"tsc", "no-inputs-pretty.txt", stated{types: diag(1, 0)}},
	}
	for _, tc := range tests {
		t.Run(tc.format+"/"+tc.file, func(t *testing.T) {
			path := filepath.Join("testdata", tc.format, tc.file)
			r, err := parseFile(t, tc.format, path)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{filepath.ToSlash(path)}, r.Sources); diff != "" {
				t.Errorf("Sources (-want +got):\n%s", diff)
			}
			w := tc.want
			if w.tests != nil {
				got, ok := r.TestCounts()
				if !ok {
					t.Fatal("no tests measured")
				}
				if diff := cmp.Diff(*w.tests, got); diff != "" {
					t.Errorf("test counts (-want +got):\n%s", diff)
				}
			} else if r.Tests != nil {
				t.Errorf("Tests = %d tests, want not measured", r.Tests.Len())
			}
			if w.coverage != nil {
				got, ok := r.Coverage.Percent()
				if !ok || math.Abs(got-*w.coverage) > 0.01 {
					t.Errorf("coverage = %v (ok %v), want %.4f", got, ok, *w.coverage)
				}
			} else if r.Coverage != nil {
				t.Error("Coverage measured, want not measured")
			}
			got, ok := r.Coverage.BranchPercent()
			switch {
			case w.branches == nil && ok:
				t.Errorf("branch coverage = %v, want no branch data", got)
			case w.branches != nil && (!ok || math.Abs(got-*w.branches) > 0.01):
				t.Errorf("branch coverage = %v (ok %v), want %.4f", got, ok, *w.branches)
			}
			checkDiags(t, "lint", w.lint, r.Lint)
			checkDiags(t, "type check", w.types, r.TypeCheck)
			if len(r.BuildFailures) != w.builds {
				t.Errorf("%d build failures, want %d: %+v", len(r.BuildFailures), w.builds, r.BuildFailures)
			}
			checkGolden(t, path+".golden", summarize(r))
		})
	}
}

func checkDiags(t *testing.T, what string, want *[2]int, got *Diagnostics) {
	t.Helper()
	switch {
	case want == nil && got != nil:
		t.Errorf("%s measured, want not measured", what)
	case want != nil && got == nil:
		t.Errorf("%s not measured", what)
	case want != nil && (got.Errors != want[0] || got.Warnings != want[1]):
		t.Errorf("%s: %d errors, %d warnings, want %d, %d", what, got.Errors, got.Warnings, want[0], want[1])
	}
}

// TestLCOVFixturesMatchTheirSummaries checks that the lines found and hit
// computed from DA records equal the LF and LH each producer wrote, and the
// branches computed from BRDA records its BRF and BRH.
func TestLCOVFixturesMatchTheirSummaries(t *testing.T) {
	paths, _ := filepath.Glob("testdata/lcov/*.info")
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			r, err := parseFile(t, "lcov", path)
			if err != nil {
				t.Fatal(err)
			}
			sum := statedLCOV(t, path)
			found, hit := 0, 0
			for _, f := range r.Coverage.Files {
				fo, h := f.Lines()
				found += fo
				hit += h
			}
			if found != sum["LF"] || hit != sum["LH"] {
				t.Errorf("DA records give %d found, %d hit; LF/LH say %d, %d", found, hit, sum["LF"], sum["LH"])
			}
			if bf, bh := r.Coverage.Branches(); bf != int64(sum["BRF"]) || bh != int64(sum["BRH"]) {
				t.Errorf("BRDA records give %d found, %d hit; BRF/BRH say %d, %d", bf, bh, sum["BRF"], sum["BRH"])
			}
		})
	}
}

// statedLCOV sums the LF, LH, BRF and BRH records of a tracefile.
func statedLCOV(t *testing.T, path string) map[string]int {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	sum := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), ":")
		n, _ := strconv.Atoi(v)
		switch k {
		case "LF", "LH", "BRF", "BRH":
			sum[k] += n
		}
	}
	return sum
}

// TestCoberturaFixturesMatchTheirTotals checks the per-file lines against the
// root's lines-valid and lines-covered, and the lines' conditions against
// its branches-valid and branches-covered.
func TestCoberturaFixturesMatchTheirTotals(t *testing.T) {
	paths, _ := filepath.Glob("testdata/cobertura/*.xml")
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			r, err := parseFile(t, "cobertura", path)
			if err != nil {
				t.Fatal(err)
			}
			root := statedCobertura(t, path)
			found, hit := 0, 0
			for _, f := range r.Coverage.Files {
				fo, h := f.Lines()
				found += fo
				hit += h
			}
			if found != root["lines-valid"] || hit != root["lines-covered"] {
				t.Errorf("lines give %d valid, %d covered; the root says %d, %d", found, hit, root["lines-valid"], root["lines-covered"])
			}
			if bf, bh := r.Coverage.Branches(); bf != int64(root["branches-valid"]) || bh != int64(root["branches-covered"]) {
				t.Errorf("conditions give %d valid, %d covered; the root says %d, %d", bf, bh, root["branches-valid"], root["branches-covered"])
			}
		})
	}
}

// statedCobertura reads the root's line and branch counts.
func statedCobertura(t *testing.T, path string) map[string]int {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	d := xml.NewDecoder(f)
	for {
		tok, err := d.Token()
		if err == io.EOF {
			t.Fatal("no <coverage>")
		}
		if err != nil {
			t.Fatal(err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "coverage" {
			root := map[string]int{}
			for _, a := range []string{"lines-valid", "lines-covered", "branches-valid", "branches-covered"} {
				v, _ := attr(se, a)
				root[a], _ = strconv.Atoi(v)
			}
			return root
		}
	}
}
