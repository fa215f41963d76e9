package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// vitestDir returns the directory whose node_modules holds vitest, named by
// RALPH_GATE_VITEST_DIR (.ci/run installs it there once, so no test runs npm
// install), with node on PATH. Without them the vitest end-to-end tests
// skip, unless RALPH_GATE_REQUIRE_VITEST is set (.ci/run sets it), where they
// fail: CI never skips them silently.
func vitestDir(t *testing.T) string {
	t.Helper()
	return nodeToolDir(t, "vitest", "RALPH_GATE_VITEST_DIR", "RALPH_GATE_REQUIRE_VITEST", "vitest@3.2.4", "vitest/vitest.mjs")
}

// nodeToolDir returns the directory the variable dirVar names, whose
// node_modules holds files (what `npm install --prefix DIR install`
// installs), with node on PATH; without them the tests of what skip, or
// fail when requireVar is set.
func nodeToolDir(t *testing.T, what, dirVar, requireVar, install string, files ...string) string {
	t.Helper()
	fail := func(msg string) {
		t.Helper()
		missingTool(t, requireVar, msg)
	}
	if _, err := exec.LookPath("node"); err != nil {
		fail("no node on PATH: the " + what + " end-to-end tests need it")
	}
	dir := os.Getenv(dirVar)
	if dir == "" {
		fail(dirVar + " is not set: it names a directory with node_modules/" + files[0] + " (npm install --prefix DIR " + install + ")")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(abs, "node_modules", f)); err != nil {
			fail(dirVar + "=" + abs + " has no node_modules/" + f + " (npm install --prefix DIR " + install + ")")
		}
	}
	return abs
}

const calcJS = `export function add(a, b) {
  return a + b
}

export function mul(a, b) {
  return a * b
}
`

// The tests use vitest's globals (--globals): an import from 'vitest' would
// not resolve from the repository, which has no node_modules.
const calcTestJS = `import { add, mul } from '../src/calc.js'

describe('calc', () => {
  test('adds', () => {
    expect(add(2, 3)).toBe(5)
  })

  test('multiplies', () => {
    expect(mul(2, 3)).toBe(6)
  })
})
`

// vitestProject commits, at BASE, an ES module, its vitest tests and a
// .ralph-gate.yml whose collector runs the shared vitest install on them.
// Its command ends with {tamper_files}: the ordinary measurement drops it
// (vitest runs every test), the tamper check replaces it with the edited
// test files.
func vitestProject(t *testing.T) *repo {
	dir := vitestDir(t)
	r := newRepo(t)
	argv := []string{
		"node", filepath.Join(dir, "node_modules", "vitest", "vitest.mjs"), "run", "--globals", "--root", ".",
		"--reporter=default", "--reporter=junit", "--outputFile.junit={out}/junit.xml", "{tamper_files}",
	}
	quoted := make([]string, len(argv))
	for i, a := range argv {
		quoted[i] = strconv.Quote(a)
	}
	r.write(".ralph-gate.yml", "collectors:\n"+
		"  - name: vitest\n"+
		"    argv: ["+strings.Join(quoted, ", ")+"]\n"+
		"    timeout: 2m\n"+
		"    tests: true\n"+
		"    reports: [{format: junit, path: \"{out}/junit.xml\"}]\n")
	r.write("src/calc.js", calcJS)
	r.write("test/calc.test.js", calcTestJS)
	r.commit("base")
	return r
}

func TestVitestRegressionTestNowFails(t *testing.T) {
	t.Parallel()
	r := vitestProject(t)
	base := r.git("rev-parse", "HEAD")
	// The code breaks; no test is touched.
	r.write("src/calc.js", strings.Replace(calcJS, "return a * b", "return a + b", 1))
	r.commit("agent: simplify mul")
	rep := compareBlocks(t, r, base, "test_regression", "test-now-fails", "test/calc.test.js", "multiplies", "passed at BASE", "expected 5 to be 6")
	if f, _ := rep.findingOf("test_regression", "test-now-fails"); !strings.Contains(f.Test, "multiplies") || f.Severity != "high" || f.File != "test/calc.test.js" {
		t.Errorf("finding test %q severity %q file %q, want calc > multiplies, high, test/calc.test.js", f.Test, f.Severity, f.File)
	}
	if rep.has("test_regression", "", "adds") {
		t.Errorf("the passing test is reported: %+v", rep.Findings)
	}
	// The text report (from the cache) names the failing test.
	res := runGate(t, r.dir, "", "compare", base, "HEAD")
	if res.code != 1 || !strings.Contains(res.stdout, "multiplies") || !strings.Contains(res.stdout, "test_regression") {
		t.Errorf("text: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
}

// TestVitestModuleNoLongerLoads: a test file whose import of the production
// module fails at HEAD runs no test; its tests, which passed at BASE, are one
// test_regression naming the file, why, and the tests with no result.
func TestVitestModuleNoLongerLoads(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, src, why string
	}{
		{"throws at import", "throw new Error('calc: not configured')\n\n" + calcJS, "Error: calc: not configured"},
		{"syntax error", strings.Replace(calcJS, "return a * b", "return a *", 1), "Parse failure"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := vitestProject(t)
			base := r.git("rev-parse", "HEAD")
			r.write("src/calc.js", c.src)
			r.commit("agent: wip")
			compareBlocks(t, r, base, "test_regression", "package-broken", "test/calc.test.js", "failed to load", c.why,
				"2 tests have no result", "calc > adds", "calc > multiplies")
		})
	}
}

// TestVitestTamperCheck: HEAD breaks the code and rewrites the expectation
// to what the broken code returns, adding no test. BASE's test file, run by
// the vitest collector against HEAD's code, fails: a high tamper-check
// finding.
func TestVitestTamperCheck(t *testing.T) {
	t.Parallel()
	r := vitestProject(t)
	base := r.git("rev-parse", "HEAD")
	r.write("src/calc.js", strings.Replace(calcJS, "return a * b", "return a * b + 1", 1))
	r.write("test/calc.test.js", strings.Replace(calcTestJS, "toBe(6)", "toBe(7)", 1))
	r.commit("agent: fix the test")
	res := runGate(t, r.dir, "", "compare", "--format", "json", base, "HEAD")
	rep := parseCompare(t, res.stdout)
	f, ok := rep.findingOf("assertion_weakening", "tamper-check")
	if res.code != 1 || !ok {
		t.Fatalf("exit %d, want 1 with a tamper-check finding: %+v\n%s", res.code, rep.Findings, res.stderr)
	}
	if f.Severity != "high" || f.File != "test/calc.test.js" || !strings.Contains(f.Test, "multiplies") || f.Evidence != "measured" {
		t.Errorf("tamper finding %+v, want high, measured, on test/calc.test.js calc > multiplies", f)
	}
	for _, w := range []string{"BASE's version of it fails against HEAD's code", "expected 7 to be 6", "added no test"} {
		if !strings.Contains(f.Message, w) {
			t.Errorf("tamper message lacks %q: %s", w, f.Message)
		}
	}
	var st struct {
		TamperCheck *struct {
			Ran        bool     `json:"ran"`
			Reason     string   `json:"reason"`
			Files      []string `json:"files"`
			Collectors []string `json:"collectors"`
		} `json:"tamper_check"`
	}
	if err := json.Unmarshal([]byte(res.stdout), &st); err != nil || st.TamperCheck == nil {
		t.Fatalf("no tamper_check in the report (%v):\n%s", err, res.stdout)
	}
	if tc := st.TamperCheck; !tc.Ran || strings.Join(tc.Files, ",") != "test/calc.test.js" || strings.Join(tc.Collectors, ",") != "vitest" {
		t.Errorf("tamper_check %+v, want ran on test/calc.test.js with the vitest collector", *tc)
	}
}

// TestVitestBugFixPasses: a real fix with its new test breaks nothing.
func TestVitestBugFixPasses(t *testing.T) {
	t.Parallel()
	r := vitestProject(t)
	// BASE has a bug no test sees.
	r.write("src/calc.js", calcJS+"\nexport function sub(a, b) {\n  return b - a\n}\n")
	base := r.commit("add sub")
	r.write("src/calc.js", calcJS+"\nexport function sub(a, b) {\n  return a - b\n}\n")
	r.write("test/sub.test.js", "import { sub } from '../src/calc.js'\n\ntest('subtracts', () => {\n  expect(sub(5, 3)).toBe(2)\n})\n")
	r.commit("fix sub, with its test")
	res := runGate(t, r.dir, "", "compare", "--format", "json", base, "HEAD")
	rep := parseCompare(t, res.stdout)
	if res.code != 0 || len(rep.Findings) != 0 || rep.Verdict != "pass" {
		t.Fatalf("a fix with its test: exit %d, verdict %q, findings %+v\n%s", res.code, rep.Verdict, rep.Findings, res.stderr)
	}
	// The new test ran and passed at HEAD.
	var ids struct {
		Metrics struct {
			Head struct {
				TestIDs struct {
					Passed []string `json:"passed"`
				} `json:"test_ids"`
			} `json:"head"`
		} `json:"metrics"`
	}
	if err := json.Unmarshal([]byte(res.stdout), &ids); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(ids.Metrics.Head.TestIDs.Passed, ","); !strings.Contains(got, "test/sub.test.js") || !strings.Contains(got, "subtracts") {
		t.Errorf("HEAD's passing tests %q lack test/sub.test.js subtracts", got)
	}
}
