package main

import (
	"os/exec"
	"strings"
	"testing"
)

// pytestPython finds an interpreter with pytest and coverage.py: python3 on
// PATH, else Debian's. Without one the Python end-to-end tests skip, unless
// RALPH_GATE_REQUIRE_PYTEST is set (.ci/run sets it after installing them),
// where they fail: CI never skips them silently.
func pytestPython(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if err := exec.Command(p, "-c", "import pytest, coverage").Run(); err == nil {
			if abs, err := exec.LookPath(p); err == nil {
				return abs
			}
		}
	}
	missingTool(t, "RALPH_GATE_REQUIRE_PYTEST", "no python3 with pytest and coverage.py (apt-get install python3-pytest python3-coverage)")
	return ""
}

const calcPy = `def add(a, b):
    return a + b


def mul(a, b):
    return a * b
`

const testCalcPy = `from calc import add, mul


def test_add():
    assert add(2, 3) == 5


def test_mul():
    assert mul(2, 3) == 6
`

func pytestProject(t *testing.T) *repo {
	py := pytestPython(t)
	r := newRepo(t)
	r.write(".ralph-gate.yml", "toolchain:\n  python: "+py+"\n")
	r.write("pytest.ini", "[pytest]\npythonpath = .\n")
	r.write("calc.py", calcPy)
	r.write("tests/test_calc.py", testCalcPy)
	r.commit("base")
	return r
}

func TestPytestRegressionTestNowFails(t *testing.T) {
	slow(t)
	t.Parallel()
	r := pytestProject(t)
	base := r.git("rev-parse", "HEAD")
	r.write("calc.py", strings.Replace(calcPy, "return a * b", "return a + b", 1))
	r.commit("agent: simplify mul")
	compareBlocks(t, r, base, "test_regression", "test-now-fails", "test_mul", "passed at BASE", "assert 5 == 6")
}

func TestPytestModuleNoLongerImports(t *testing.T) {
	slow(t)
	t.Parallel()
	r := pytestProject(t)
	base := r.git("rev-parse", "HEAD")
	r.write("calc.py", strings.Replace(calcPy, "def mul(a, b):", "def mul(a, b)", 1))
	r.commit("agent: wip")
	compareBlocks(t, r, base, "test_regression", "package-broken", "test_add", "test_mul")
}

// TestPytestRunExitsEarly: production code that ends the process with status
// 0 while a test runs (os._exit skips pytest's report and coverage.py's
// data). HEAD's run writes no JUnit file: that is a measurement, so compare
// blocks naming the tests that have no result, with the static findings
// kept, where it used to exit 2 on the missing report.
func TestPytestRunExitsEarly(t *testing.T) {
	slow(t)
	t.Parallel()
	r := pytestProject(t)
	base := r.git("rev-parse", "HEAD")
	r.write("calc.py", "import os\n\n\n"+strings.Replace(calcPy, "    return a + b", "    if (a, b) == (2, 3):\n        os._exit(0)\n    return a + b", 1))
	r.write("tests/test_calc.py", strings.Replace(testCalcPy, "mul(2, 3) == 6", "mul(2, 3) == 7", 1))
	r.commit("agent: fast path")
	rep := compareBlocks(t, r, base, "test_regression", "package-broken", "test_add", "test_mul", "no result")
	if !rep.has("test_regression", "evidence-integrity", "") {
		t.Errorf("no finding names the run that wrote no report: %+v", rep.Findings)
	}
	if !rep.has("assertion_weakening", "", "test_mul") {
		t.Errorf("the static finding of the change is lost: %+v", rep.Findings)
	}
}
