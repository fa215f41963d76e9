package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// findingOf returns the first net finding of a type (and rule, when given).
func (r compareReport) findingOf(typ, rule string) (f struct {
	Type, Severity, Rule, Test, File, Evidence, Message string
	Net                                                 bool
}, ok bool) {
	for _, x := range r.Findings {
		if x.Type == typ && (rule == "" || x.Rule == rule) && x.Net {
			return x, true
		}
	}
	return f, false
}

// compareBlocks runs compare BASE..HEAD and wants it to block with a net
// finding of typ whose message holds every want.
func compareBlocks(t *testing.T, r *repo, base, typ, rule string, want ...string) compareReport {
	t.Helper()
	res := runGate(t, r.dir, "", "compare", "--format", "json", base, "HEAD")
	rep := parseCompare(t, res.stdout)
	if res.code != 1 {
		t.Fatalf("exit %d, want 1 (blocked)\nstdout: %s\nstderr: %s", res.code, res.stdout, res.stderr)
	}
	f, ok := rep.findingOf(typ, rule)
	if !ok {
		t.Fatalf("no %s/%s finding: %+v", typ, rule, rep.Findings)
	}
	for _, w := range want {
		if !strings.Contains(f.Message, w) {
			t.Errorf("%s message lacks %q: %s", typ, w, f.Message)
		}
	}
	if f.Evidence != "measured" && rule != "unreadable-file" {
		t.Errorf("evidence %q, want measured", f.Evidence)
	}
	return rep
}

func TestRegressionTestNowFails(t *testing.T) {
	t.Parallel()
	r := compareModule(t)
	base := r.git("rev-parse", "HEAD")
	// The code breaks; no test is touched.
	r.write("calc.go", strings.Replace(r.read("calc.go"), "return a * b", "return a + b", 1))
	r.commit("agent: simplify Mul")
	rep := compareBlocks(t, r, base, "test_regression", "test-now-fails", "example.com/calc.TestMul", "passed at BASE", "Mul(2, 3) = 5, want 6")
	if f, _ := rep.findingOf("test_regression", ""); f.File != "mul_test.go" || f.Severity != "high" {
		t.Errorf("finding file %q severity %q, want mul_test.go, high", f.File, f.Severity)
	}
	// The text report names the failing test.
	res := runGate(t, r.dir, "", "compare", base, "HEAD")
	if res.code != 1 || !strings.Contains(res.stdout, "TestMul") || !strings.Contains(res.stdout, "test_regression") {
		t.Errorf("text: exit %d\n%s", res.code, res.stdout)
	}
}

func TestRegressionPackageNoLongerBuilds(t *testing.T) {
	t.Parallel()
	r := compareModule(t)
	base := r.git("rev-parse", "HEAD")
	r.write("calc.go", strings.Replace(r.read("calc.go"), "return a * b", "return a * c", 1))
	r.commit("agent: wip")
	compareBlocks(t, r, base, "test_regression", "package-broken", "example.com/calc", "fails to build", "undefined: c", "TestMul", "TestAdd")
}

func TestRegressionBinaryExitsBeforeTests(t *testing.T) {
	t.Parallel()
	r := compareModule(t)
	base := r.git("rev-parse", "HEAD")
	// Production code that ends the test binary before any test runs, with
	// status 0: go test prints "ok" and no test event.
	r.write("init.go", "package calc\n\nimport (\n\t\"os\"\n\t\"strings\"\n)\n\nfunc init() {\n\tif strings.HasSuffix(os.Args[0], \".test\") {\n\t\tos.Exit(0)\n\t}\n}\n")
	r.commit("agent: faster start-up")
	compareBlocks(t, r, base, "test_regression", "package-broken", "example.com/calc", "TestMul", "no result")
}

// TestRegressionBinaryExitsMidPackage: production code that ends the test
// binary with status 0 while one test runs. go test prints "ok", test2json
// credits the test with a pass and the tests after it never run; the stream
// has no result for the package. That is a measurement (the package did
// not finish), not unreadable input: compare blocks with the static
// findings kept, where it used to exit 2.
func TestRegressionBinaryExitsMidPackage(t *testing.T) {
	t.Parallel()
	r := compareModule(t)
	base := r.git("rev-parse", "HEAD")
	r.write("settle.go", "package calc\n\nimport \"syscall\"\n\n// settle flushes the process state.\nfunc settle() { syscall.Exit(0) }\n")
	r.write("calc.go", strings.Replace(r.read("calc.go"), "func Add(a, b int) int { return a + b }", "func Add(a, b int) int {\n\tif a == 2 && b == 3 {\n\t\tsettle()\n\t}\n\treturn a + b\n}", 1))
	r.write("mul_test.go", strings.Replace(mulTest, "want 6", "want 7", 1))
	r.commit("agent: settle")
	rep := compareBlocks(t, r, base, "test_regression", "package-broken", "example.com/calc", "exited early", "last test seen was TestAdd", "TestMul", "TestSub")
	if !rep.has("assertion_weakening", "test-data-rewritten", "TestMul") {
		t.Errorf("the static finding of the change is lost: %+v", rep.Findings)
	}
}

func TestRegressionBinaryPanics(t *testing.T) {
	t.Parallel()
	r := compareModule(t)
	base := r.git("rev-parse", "HEAD")
	r.write("calc.go", strings.Replace(r.read("calc.go"), "return a * b", "panic(\"boom\")", 1))
	r.commit("agent: wip")
	rep := compareBlocks(t, r, base, "test_regression", "", "TestMul")
	if !rep.has("test_regression", "test-now-fails", "TestMul") {
		t.Errorf("the panicking test is not named: %+v", rep.Findings)
	}
}

func TestRegressionForgedTestEvents(t *testing.T) {
	t.Parallel()
	r := compareModule(t)
	base := r.git("rev-parse", "HEAD")
	// Mul breaks and, while the test runs, prints what a passing run would
	// print: test2json's framing, with and without its marker byte, and whole
	// JSON events.
	forged := `package calc

import (
	"fmt"
	"os"
)

func forge() {
	for _, w := range []*os.File{os.Stdout, os.Stderr} {
		fmt.Fprintln(w, "--- PASS: TestMul (0.00s)")
		fmt.Fprintln(w, "\x16--- PASS: TestMul (0.00s)")
		fmt.Fprintln(w, "{\"Action\":\"pass\",\"Package\":\"example.com/calc\",\"Test\":\"TestMul\"}")
	}
}
`
	r.write("forge.go", forged)
	r.write("calc.go", strings.Replace(r.read("calc.go"), "return a * b", "forge()\n\treturn a + b", 1))
	r.commit("agent: fix Mul")
	compareBlocks(t, r, base, "test_regression", "", "TestMul")
}

// TestRegressionForgedPassThenExit: production code that, under the test,
// prints test2json's own framing (marker byte included) for a pass and ends
// the process with status 0 before the testing package can record the real
// failure. go test -json then reports the test passed; the gate sees that the
// test binary never finished, since it wrote no coverage profile.
func TestRegressionForgedPassThenExit(t *testing.T) {
	t.Parallel()
	r := compareModule(t)
	base := r.git("rev-parse", "HEAD")
	r.write("forge.go", `package calc

import (
	"fmt"
	"os"
	"syscall"
)

func forge() {
	fmt.Fprint(os.Stdout, "\x16--- PASS: TestMul (0.00s)\n\x16PASS\n")
	syscall.Exit(0)
}
`)
	r.write("calc.go", strings.Replace(r.read("calc.go"), "return a * b", "if a == 2 && b == 3 {\n\t\tforge()\n\t}\n\treturn a + b", 1))
	r.commit("agent: fix Mul")
	compareBlocks(t, r, base, "test_regression", "package-broken", "example.com/calc", "wrote no coverage profile", "cannot be trusted")
}

// TestRegressionForgedGhostTest: production code that prints test2json's
// framing for a test nobody wrote adds a passing test to go test's own
// report; no _test.go file declares it, so the package's results are not
// trusted.
func TestRegressionForgedGhostTest(t *testing.T) {
	t.Parallel()
	r := compareModule(t)
	base := r.git("rev-parse", "HEAD")
	r.write("forge.go", "package calc\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc init() {\n\tfmt.Fprint(os.Stdout, \"\\x16=== RUN   TestGhost\\n\\x16--- PASS: TestGhost (0.00s)\\n\")\n}\n")
	r.commit("agent: more coverage")
	compareBlocks(t, r, base, "test_regression", "forged-test-results", "example.com/calc reported results for TestGhost", "no _test.go file")
}

func TestRegressionBugFixWithTestPasses(t *testing.T) {
	t.Parallel()
	r := compareModule(t)
	base := r.git("rev-parse", "HEAD")
	// A real fix: Mul(0, x) was already right; add Neg handling and its test.
	r.write("calc.go", r.read("calc.go")+"\n// Neg negates.\nfunc Neg(a int) int { return -a }\n")
	r.write("neg_test.go", "package calc\n\nimport \"testing\"\n\nfunc TestNeg(t *testing.T) {\n\tif Neg(2) != -2 {\n\t\tt.Fatal(\"Neg(2)\")\n\t}\n}\n")
	r.commit("add Neg")
	res := runGate(t, r.dir, "", "compare", "--format", "json", base, "HEAD")
	rep := parseCompare(t, res.stdout)
	if res.code != 0 || len(rep.Findings) != 0 {
		t.Errorf("a fix with its test: exit %d, findings %+v\n%s", res.code, rep.Findings, res.stderr)
	}
}

func TestUnreadableTestFileIsUnverified(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		change func(r *repo)
		reason string
	}{
		{"symlink", func(r *repo) {
			r.remove("mul_test.go")
			if err := os.Symlink("calc.go", filepath.Join(r.dir, "mul_test.go")); err != nil {
				t.Fatal(err)
			}
		}, "symbolic link"},
		{"NUL byte", func(r *repo) {
			r.write("mul_test.go", strings.Replace(mulTest, "want 6", "want 6\x00", 1))
		}, "binary"},
		{"oversize", func(r *repo) {
			r.write("mul_test.go", mulTest+"\n// "+strings.Repeat("x", 5<<20)+"\n")
		}, "larger than"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := compareModule(t)
			base := r.git("rev-parse", "HEAD")
			c.change(r)
			r.commit("agent: " + c.name)
			res := runGate(t, r.dir, "", "analyze", "--format", "json", base, "HEAD")
			rep := parseCompare(t, res.stdout)
			f, ok := rep.findingOf("unverified", "unreadable-file")
			if res.code != 1 || !ok || f.File != "mul_test.go" || !strings.Contains(f.Message, c.reason) || f.Severity != "high" {
				t.Errorf("analyze: exit %d, unverified %+v (want high on mul_test.go saying %q)\n%s", res.code, f, c.reason, res.stderr)
			}
		})
	}
}

type tamperStatus struct {
	TamperCheck *struct {
		Ran    bool     `json:"ran"`
		Reason string   `json:"reason"`
		Files  []string `json:"files"`
	} `json:"tamper_check"`
}

func tamperOf(t *testing.T, out string) tamperStatus {
	t.Helper()
	var s tamperStatus
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if s.TamperCheck == nil {
		t.Fatalf("no tamper_check in the report:\n%s", out)
	}
	return s
}

// goTestReports writes real go test -json and cover profile reports of the
// repository's checkout at rev into dir, as an earlier CI step would.
func goTestReports(t *testing.T, r *repo, rev, dir, name string) []string {
	t.Helper()
	wt := filepath.Join(t.TempDir(), "wt")
	r.git("worktree", "add", "--detach", "-q", wt, rev)
	defer r.git("worktree", "remove", "--force", wt)
	out := runCmd(t, wt, "go", "test", "-json", "./...")
	p := filepath.Join(dir, name+".json")
	if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return []string{"gotest=" + p}
}

func TestTamperCheckRunsWithReports(t *testing.T) {
	t.Parallel()
	r := compareModule(t)
	base := r.git("rev-parse", "HEAD")
	r.write("calc.go", strings.Replace(r.read("calc.go"), "return a * b", "return a*b + 1", 1))
	r.write("mul_test.go", strings.NewReplacer("want 6", "want 7", "got != 6", "got != 7").Replace(mulTest))
	r.commit("agent: fix the test")
	dir := t.TempDir()
	headRep := goTestReports(t, r, "HEAD", dir, "head")
	baseRep := goTestReports(t, r, base, dir, "base")
	res := runGate(t, r.dir, "", "compare", "--format", "json", "--report", headRep[0], "--base-report", baseRep[0], base, "HEAD")
	rep := parseCompare(t, res.stdout)
	if res.code != 1 || !rep.has("assertion_weakening", "tamper-check", "TestMul") {
		t.Fatalf("with --report: exit %d, findings %+v\n%s", res.code, rep.Findings, res.stderr)
	}
	if st := tamperOf(t, res.stdout); !st.TamperCheck.Ran || len(st.TamperCheck.Files) != 1 {
		t.Errorf("tamper_check %+v, want ran on mul_test.go", *st.TamperCheck)
	}
	// The text report says it in one line.
	txt := runGate(t, r.dir, "", "compare", "--report", headRep[0], "--base-report", baseRep[0], base, "HEAD")
	if !strings.Contains(txt.stdout, "Tamper check: ran BASE's 1 edited test file") {
		t.Errorf("text lacks the tamper line:\n%s", txt.stdout)
	}
	// Switched off, the JSON says why.
	off := runGate(t, r.dir, "", "compare", "--format", "json", "--no-tamper-check", "--report", headRep[0], "--base-report", baseRep[0], base, "HEAD")
	if st := tamperOf(t, off.stdout); st.TamperCheck.Ran || !strings.Contains(st.TamperCheck.Reason, "--no-tamper-check") {
		t.Errorf("--no-tamper-check: tamper_check %+v", *st.TamperCheck)
	}
}

func TestTamperCheckThatDoesNotBuildIsUnverified(t *testing.T) {
	t.Parallel()
	r := compareModule(t)
	base := r.git("rev-parse", "HEAD")
	// HEAD renames Mul and edits its test to match: BASE's test no longer
	// builds against HEAD's code, so the edit cannot be checked.
	r.write("calc.go", strings.NewReplacer("func Mul(", "func Times(", "// Mul multiplies.", "// Times multiplies.").Replace(r.read("calc.go")))
	r.write("mul_test.go", strings.NewReplacer("Mul(2, 3)", "Times(2, 3)", "TestMul", "TestTimes").Replace(mulTest))
	r.commit("agent: rename Mul")
	res := runGate(t, r.dir, "", "compare", "--format", "json", "--fail-on", "medium", base, "HEAD")
	rep := parseCompare(t, res.stdout)
	f, ok := rep.findingOf("unverified", "tamper-check-unverified")
	if res.code != 1 || !ok || f.Severity != "medium" || !strings.Contains(f.Message, "does not build against HEAD") || !strings.Contains(f.Message, "undefined: Mul") {
		t.Errorf("exit %d, unverified %+v\nall: %+v\n%s", res.code, f, rep.Findings, res.stderr)
	}
}

// TestCoverageUnitsAreNeverCompared: statement coverage (a Go cover profile)
// at BASE and line coverage (LCOV) at HEAD is refused with one line naming
// both, never a coverage_regression.
func TestCoverageUnitsAreNeverCompared(t *testing.T) {
	t.Parallel()
	r := compareModule(t)
	base := r.git("rev-parse", "HEAD")
	r.commit("empty")
	dir := t.TempDir()
	tests := filepath.Join(dir, "tests.json")
	if err := os.WriteFile(tests, []byte(runCmd(t, r.dir, "go", "test", "-json", "-coverprofile="+filepath.Join(dir, "cover.out"), "./...")), 0o644); err != nil {
		t.Fatal(err)
	}
	// The same code measured by lines, as an LCOV producer writes it: 1 of 4
	// lines hit, far below the profile's statements.
	lcov := "TN:\nSF:calc.go\nDA:4,1\nDA:7,0\nDA:10,0\nDA:13,0\nLF:4\nLH:1\nend_of_record\n"
	if err := os.WriteFile(filepath.Join(dir, "lcov.info"), []byte(lcov), 0o644); err != nil {
		t.Fatal(err)
	}
	res := runGate(t, r.dir, "", "compare", "--format", "json",
		"--base-report", "gotest="+tests, "--base-report", "coverprofile="+filepath.Join(dir, "cover.out"),
		"--report", "gotest="+tests, "--report", "lcov="+filepath.Join(dir, "lcov.info"), base, "HEAD")
	if res.code != 2 || !strings.Contains(res.stderr, "statement coverage at BASE") || !strings.Contains(res.stderr, "line coverage at HEAD") ||
		strings.Count(strings.TrimSpace(res.stderr), "\n") != 0 || strings.Contains(res.stdout, "coverage_regression") {
		t.Errorf("mixed units: exit %d\nstdout %s\nstderr %s", res.code, res.stdout, res.stderr)
	}
	// The same unit at both ends compares as before.
	same := runGate(t, r.dir, "", "compare", "--format", "json",
		"--base-report", "gotest="+tests, "--base-report", "coverprofile="+filepath.Join(dir, "cover.out"),
		"--report", "gotest="+tests, "--report", "coverprofile="+filepath.Join(dir, "cover.out"), base, "HEAD")
	if same.code != 0 || !strings.Contains(same.stdout, `"coverage_unit": "statement"`) {
		t.Errorf("same unit: exit %d\n%s%s", same.code, same.stdout, same.stderr)
	}
}

// TestDeletedTestFileIsOneFinding: a deleted test file is one finding with
// its tests' names, static and measured merged, printed once.
func TestDeletedTestFileIsOneFinding(t *testing.T) {
	t.Parallel()
	r := compareModule(t)
	base := r.git("rev-parse", "HEAD")
	r.remove("calc_test.go")
	r.commit("agent: drop slow tests")
	res := runGate(t, r.dir, "", "compare", "--format", "json", base, "HEAD")
	var rep struct {
		Findings []struct {
			Type, Rule, Evidence string
			Tests                []string
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(res.stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, res.stdout)
	}
	n := 0
	for _, f := range rep.Findings {
		if f.Type != "test_deletion" {
			continue
		}
		n++
		if f.Rule != "test-file-deleted" || strings.Join(f.Tests, ",") != "TestAdd,TestSub" || f.Evidence != "measured" {
			t.Errorf("deletion finding %+v", f)
		}
	}
	if res.code != 1 || n != 1 {
		t.Errorf("exit %d, %d test_deletion findings, want 1\n%s", res.code, n, res.stdout)
	}
}

// TestTamperGrading: an expectation rewritten to match broken code with no
// new test is high; the same kind of edit that comes with new tests of the
// new behaviour, checking as much as before, is medium, with both outcomes.
func TestTamperGrading(t *testing.T) {
	t.Parallel()
	r := compareModule(t)
	base := r.git("rev-parse", "HEAD")
	// Requested: Mul saturates at 5. The old expectation changes, and new
	// tests pin the new behaviour.
	r.write("calc.go", strings.Replace(r.read("calc.go"), "return a * b", "if a*b > 5 {\n\t\treturn 5\n\t}\n\treturn a * b", 1))
	r.write("mul_test.go", strings.NewReplacer("want 6", "want 5", "got != 6", "got != 5").Replace(mulTest)+
		"\nfunc TestMulSaturates(t *testing.T) {\n\tif got := Mul(10, 10); got != 5 {\n\t\tt.Errorf(\"Mul(10, 10) = %d, want 5\", got)\n\t}\n\tif got := Mul(1, 2); got != 2 {\n\t\tt.Errorf(\"Mul(1, 2) = %d, want 2\", got)\n\t}\n}\n")
	r.commit("saturate Mul at 5, as asked")
	res := runGate(t, r.dir, "", "compare", "--format", "json", base, "HEAD")
	rep := parseCompare(t, res.stdout)
	f, ok := rep.findingOf("assertion_weakening", "tamper-check")
	if !ok || f.Severity != "medium" || !strings.Contains(f.Message, "TestMulSaturates") || !strings.Contains(f.Message, "want 6") || res.code != 0 {
		t.Errorf("requested change: exit %d, tamper finding %+v\n%s", res.code, f, res.stderr)
	}
	// The diff's own finding on TestMul (expected value rewritten) is folded
	// into the measured one: one finding per test.
	n := 0
	for _, x := range rep.Findings {
		if x.Type == "assertion_weakening" && x.Net {
			n++
		}
	}
	if n != 1 || !strings.Contains(f.Message, "the diff shows: expected value in test TestMul was rewritten from 6 to 5") {
		t.Errorf("%d assertion_weakening findings, want 1 with both facts: %+v", n, rep.Findings)
	}
}

// TestRegressionJUnitCasesCutFromReport: a HEAD report whose suite declares
// more tests than it lists lost test cases (the failing ones cut out by
// hand): a test_regression, never a pass. A BASE report that adds up, and a
// HEAD one that does, pass.
func TestRegressionJUnitCasesCutFromReport(t *testing.T) {
	t.Parallel()
	r := compareModule(t)
	base := r.git("rev-parse", "HEAD")
	r.commit("empty")
	out := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(out, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	full := write("base.xml", `<testsuites><testsuite name="calc" tests="2" failures="0"><testcase classname="calc" name="test_add"/><testcase classname="calc" name="test_mul"/></testsuite></testsuites>`)
	cut := write("cut.xml", `<testsuites><testsuite name="calc" tests="3" failures="1"><testcase classname="calc" name="test_add"/><testcase classname="calc" name="test_mul"/></testsuite></testsuites>`)
	res := runGate(t, r.dir, "", "compare", "--format", "json", "--collect", "none", "--report", "junit="+cut, "--base-report", "junit="+full, base)
	rep := parseCompare(t, res.stdout)
	f, ok := rep.findingOf("test_regression", "evidence-integrity")
	if res.code != 1 || !ok || !strings.Contains(f.Message, "declares 3 tests and lists 2") {
		t.Errorf("cut report: exit %d, findings %+v\n%s", res.code, rep.Findings, res.stderr)
	}
	res = runGate(t, r.dir, "", "compare", "--collect", "none", "--report", "junit="+full, "--base-report", "junit="+full, base)
	if res.code != 0 {
		t.Errorf("whole report: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
}

// TestTamperGradingTrivialNewTest: a hidden regression (Mul broken, its
// expectation rewritten to what the broken code returns) with a trivial new
// test beside it, one that BASE's code passes too, stays high: only new tests
// that BASE's code does not pass pin a new behaviour.
func TestTamperGradingTrivialNewTest(t *testing.T) {
	t.Parallel()
	r := compareModule(t)
	base := r.git("rev-parse", "HEAD")
	r.write("calc.go", strings.Replace(r.read("calc.go"), "return a * b", "return a + b", 1))
	r.write("mul_test.go", strings.NewReplacer("want 6", "want 5", "got != 6", "got != 5").Replace(mulTest)+
		"\nfunc TestMulZero(t *testing.T) {\n\tif got := Mul(0, 7); got != 0 {\n\t\tt.Errorf(\"Mul(0, 7) = %d, want 0\", got)\n\t}\n}\n")
	r.commit("agent: fix Mul, with a new test")
	res := runGate(t, r.dir, "", "compare", "--format", "json", base, "HEAD")
	rep := parseCompare(t, res.stdout)
	f, ok := rep.findingOf("assertion_weakening", "tamper-check")
	if !ok || f.Severity != "high" || !strings.Contains(f.Message, "BASE's code passes them too") || res.code != 1 {
		t.Errorf("cheat with a trivial new test: exit %d, tamper finding %+v\n%s", res.code, f, res.stderr)
	}
}

// TestCompareTestsOnAFixedPort: a project whose test listens on a fixed
// port (gin's integration tests take :8080) is measured at BASE and at
// HEAD one end after the other: side by side, HEAD's run found the port
// taken by BASE's and reported a regression that was not there (seen on
// gin-gonic/gin cb2b764c; with the port held for 2 s, every time).
func TestCompareTestsOnAFixedPort(t *testing.T) {
	t.Parallel()
	slow(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	r := goModule(t)
	r.write("serve_test.go", fmt.Sprintf(`package calc

import (
	"net"
	"testing"
	"time"
)

func TestServe(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:%d")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	time.Sleep(2 * time.Second)
	if Add(1, 2) != 3 {
		t.Fatal("Add")
	}
}
`, port))
	base := r.commit("a test on a fixed port")
	r.write("calc.go", strings.Replace(calcSrc, "// Add adds.", "// Add returns a+b.", 1))
	r.commit("docs")
	compareExits(t, r, base, false)
}
