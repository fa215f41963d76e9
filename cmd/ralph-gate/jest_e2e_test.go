package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// jestDir returns the directory holding node_modules/jest and jest-junit
// (RALPH_GATE_JEST_DIR; .ci/run installs them): the test repositories have
// no node_modules of their own.
func jestDir(t *testing.T) string {
	t.Helper()
	return nodeToolDir(t, "jest", "RALPH_GATE_JEST_DIR", "RALPH_GATE_REQUIRE_JEST", "jest@29.7.0 jest-junit@16.0.0", "jest/bin/jest.js", "jest-junit/index.js")
}

const tripleJS = "exports.triple = (x) => x * 3;\nexports.double = (x) => x * 2;\n"

const tripleTestJS = `const { triple, double } = require('../src/calc.js');

test('doubles', () => { expect(double(2)).toBe(4); });
test('triples', () => { expect(triple(2)).toBe(6); });
test('triples negatives', () => { expect(triple(-2)).toBe(-6); });
`

// TestJestRunExitsEarly: jest 29 ends with status 0 and writes no report
// when a test calls process.exit(0): the tests after it never run and the
// run looks green. HEAD's run wrote no JUnit file, which compare measures
// (an evidence-integrity finding, and every test BASE ran reported as not
// run at HEAD), keeping the static finding of the exit; an honest change
// beside it passes.
func TestJestRunExitsEarly(t *testing.T) {
	t.Parallel()
	slow(t)
	dir := jestDir(t)
	argv := []string{"node", filepath.Join(dir, "node_modules", "jest", "bin", "jest.js"), "--rootDir", ".", "--ci",
		"--reporters=default", "--reporters=" + filepath.Join(dir, "node_modules", "jest-junit"), "{tamper_files}"}
	quoted := make([]string, len(argv))
	for i, a := range argv {
		quoted[i] = strconv.Quote(a)
	}
	for _, c := range []struct {
		name, test, calc string
		block            bool
	}{
		{"a test exits the process", strings.Replace(tripleTestJS, "test('triples', () => {", "test('triples', () => { if (triple(2) !== 6) process.exit(0);", 1), strings.Replace(tripleJS, "x * 3", "x * 3 + 1", 1), true},
		{"a test added", tripleTestJS + "test('triples zero', () => { expect(triple(0)).toBe(0); });\n", tripleJS, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := newRepo(t)
			r.write(".ralph-gate.yml", "collectors:\n"+
				"  - name: jest\n"+
				"    argv: ["+strings.Join(quoted, ", ")+"]\n"+
				"    env: {JEST_JUNIT_OUTPUT_DIR: \"{out}\"}\n"+
				"    timeout: 2m\n"+
				"    tests: true\n"+
				"    reports: [{format: junit, path: \"{out}/junit.xml\"}]\n")
			r.write("package.json", "{\"name\": \"calc\", \"version\": \"1.0.0\", \"private\": true}\n")
			r.write("src/calc.js", tripleJS)
			r.write("test/calc.test.js", tripleTestJS)
			base := r.commit("jest")
			r.write("test/calc.test.js", c.test)
			r.write("src/calc.js", c.calc)
			r.commit(c.name)
			if !c.block {
				compareExits(t, r, base, false)
				return
			}
			rep := compareBlocks(t, r, base, "test_regression", "evidence-integrity", "without writing its report")
			if !rep.has("test_deletion", "measured-deletion", "triples") {
				t.Errorf("the tests BASE ran are not reported as not run at HEAD: %+v", rep.Findings)
			}
			if !rep.has("validation_bypass", "", "") {
				t.Errorf("the static finding of the exit is lost: %+v", rep.Findings)
			}
		})
	}
}

// TestVitestRunExitsEarly: vitest 3 stops a test's process.exit(0) itself
// ("process.exit unexpectedly called") and fails that test, so the run
// does not end early: the failure is measured as any other.
func TestVitestRunExitsEarly(t *testing.T) {
	t.Parallel()
	slow(t)
	r := vitestProject(t)
	base := r.git("rev-parse", "HEAD")
	r.write("test/calc.test.js", strings.Replace(calcTestJS, "expect(mul(2, 3)).toBe(6)", "if (mul(2, 3) !== 6) process.exit(0)", 1))
	r.write("src/calc.js", strings.Replace(calcJS, "return a * b", "return a * b + 1", 1))
	r.commit("agent: exit early")
	rep := compareBlocks(t, r, base, "test_regression", "test-now-fails", "multiplies", "process.exit")
	if !rep.has("validation_bypass", "", "") {
		t.Errorf("the static finding of the exit is lost: %+v", rep.Findings)
	}
}
