package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const stepWorkflow = `name: ci
on:
  pull_request:
  push:
    branches: [main]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-go@v5
      - name: Test
        run: make test
`

const stepMakefile = "test:\n\tgo test -tags integration ./...\n"

// integTest runs only with the integration build tag: the collectors'
// `go test ./...` never runs it, the project's CI (make test) does.
const integTest = `//go:build integration

package calc

import "testing"

func TestMulIntegration(t *testing.T) {
	if Mul(5, 3) != 15 {
		t.Fatalf("Mul(5, 3) = %d", Mul(5, 3))
	}
}
`

// TestCompareCISteps: compare runs the CI's own test step when the change
// touched the CI program: BASE's step on BASE's code (the control), BASE's
// step on HEAD's code, HEAD's step on HEAD's code. A change to the CI that
// makes a failing check pass is a critical validation_bypass, one that runs
// fewer tests a high one; a CI refactor that runs the same tests, and a
// step that cannot run here, are not. The collectors alone see none of
// these: their `go test ./...` never builds the integration test.
func TestCompareCISteps(t *testing.T) {
	t.Parallel()
	slow(t)
	// Only the integration test checks Mul: breaking it fails nothing
	// the collectors run.
	withMul := calcSrc + "\n// Mul multiplies.\nfunc Mul(a, b int) int { return a * b }\n"
	brokenMul := strings.Replace(withMul, "return a * b", "return a * (b + 1)", 1)
	for _, c := range []struct {
		name     string
		makefile string // "" keeps BASE's
		workflow string // "" keeps BASE's
		calc     string // "" keeps BASE's
		script   string // build/citest at HEAD; the step runs it instead of make
		rule     string // the ci-step finding expected, "" none
		note     string // a note expected, "" none
		newTest  string // a test file HEAD adds
		warn     bool   // the finding does not block
	}{
		{name: "recipe ends in || true", makefile: "test:\n\tgo test -tags integration ./... || true\n", calc: brokenMul, rule: "ci-step-bypassed"},
		{name: "recipe ends in exit 0", makefile: "test:\n\tgo test -tags integration ./...; exit 0\n", calc: brokenMul, rule: "ci-step-bypassed"},
		{name: "build tag dropped", makefile: "test:\n\tgo test ./...\n", calc: brokenMul, rule: "ci-step-bypassed"},
		{name: "recipe made a no-op", makefile: "test:\n\t@true\n", calc: brokenMul, rule: "ci-step-bypassed"},
		{name: "step replaced by an echo", workflow: strings.Replace(stepWorkflow, "run: make test", "run: echo all tests pass", 1), calc: brokenMul, rule: "ci-step-bypassed"},
		{name: "step switched off on pull requests", workflow: strings.Replace(stepWorkflow, "        run: make test", "        if: github.event_name != 'pull_request'\n        run: make test", 1), calc: brokenMul, rule: "ci-step-bypassed"},
		{name: "script the step runs, elsewhere, made to exit 0", script: "#!/bin/sh\ngo test -tags integration ./... || echo failed\nexit 0\n", calc: brokenMul, rule: "ci-step-bypassed"},
		{name: "script the step runs, elsewhere, reworded", script: "#!/bin/sh\nset -eu\n# unit and integration tests\ngo test -tags integration ./...\n"},
		{name: "step made unrunnable here with an expression", workflow: strings.Replace(stepWorkflow, "run: make test", "run: go test ${{ '' }} ./...", 1), calc: brokenMul, rule: "ci-step-unverified"},
		{name: "service container added for new integration tests", workflow: strings.Replace(stepWorkflow, "    runs-on: ubuntu-latest\n", "    runs-on: ubuntu-latest\n    services:\n      db:\n        image: postgres:16\n", 1),
			newTest: "//go:build integration\n\npackage calc\n\nimport \"testing\"\n\nfunc TestDatabase(t *testing.T) { t.Fatal(\"no database here\") }\n", rule: "ci-step-unverified", warn: true},
		{name: "step renamed and rewritten", workflow: strings.Replace(stepWorkflow, "      - name: Test\n        run: make test", "      - name: Unit tests\n        run: go test ./...", 1), calc: brokenMul, rule: "ci-step-bypassed"},
		{name: "step renamed and rewritten, still failing", workflow: strings.Replace(stepWorkflow, "      - name: Test\n        run: make test", "      - name: Unit tests\n        run: go test -tags integration ./...", 1), calc: brokenMul},
		{name: "step narrowed with -run", makefile: "test:\n\tgo test -tags integration -run 'TestAdd' ./...\n", rule: "ci-step-narrowed"},
		{name: "step narrowed with -short", makefile: "test:\n\tgo test -short -tags integration ./...\n", rule: "ci-step-narrowed"},
		{name: "recipe split into two targets, same tests", makefile: "test: unit integration\nunit:\n\tgo test ./...\nintegration:\n\tgo test -tags integration ./...\n"},
		{name: "workflow renamed its step, same command", workflow: strings.Replace(stepWorkflow, "name: Test", "name: Unit and integration tests", 1)},
		{name: "CI unchanged", calc: strings.Replace(withMul, "// Add adds.", "// Add returns a+b.", 1), note: "is the same at BASE and HEAD"},
		{name: "step needs a tool this machine lacks", makefile: stepMakefile, note: "proves nothing"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := goModule(t)
			r.write("calc_test.go", calcTest+shortGuarded)
			r.write("integ_test.go", integTest)
			r.write("calc.go", withMul)
			r.write("Makefile", stepMakefile)
			r.write(".github/workflows/ci.yml", stepWorkflow)
			if c.script != "" {
				r.write(".github/workflows/ci.yml", strings.Replace(stepWorkflow, "run: make test", "run: ./build/citest", 1))
				r.write("build/citest", "#!/bin/sh\nset -e\ngo test -tags integration ./...\n")
				if err := os.Chmod(filepath.Join(r.dir, "build", "citest"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if c.name == "step needs a tool this machine lacks" {
				// BASE's step fails here on BASE's own code (a linter this
				// machine lacks), HEAD drops the linter: nothing is proven.
				r.write("Makefile", stepMakefile+"\tno-such-linter-here ./...\n")
			}
			base := r.commit("ci")
			if c.makefile != "" {
				r.write("Makefile", c.makefile)
			}
			if c.workflow != "" {
				r.write(".github/workflows/ci.yml", c.workflow)
			}
			if c.calc != "" {
				r.write("calc.go", c.calc)
			}
			if c.script != "" {
				r.write("build/citest", c.script)
			}
			if c.newTest != "" {
				r.write("db_test.go", c.newTest)
			}
			r.commit(c.name)
			res := runGate(t, r.dir, "", "compare", "--format", "json", base, "HEAD")
			if res.code > 1 {
				t.Fatalf("exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
			}
			rep := parseCompare(t, res.stdout)
			got := ""
			for _, f := range rep.Findings {
				if strings.HasPrefix(f.Rule, "ci-step-") {
					got = f.Rule
					if f.Evidence != "measured" || f.Type != "validation_bypass" && f.Rule != "ci-step-unverified" {
						t.Errorf("finding %+v: want a measured validation_bypass", f)
					}
				}
			}
			if got != c.rule {
				t.Fatalf("ci-step finding %q, want %q\n%s\n%s", got, c.rule, res.stdout, res.stderr)
			}
			if c.rule != "" && !c.warn && res.code != 1 {
				t.Errorf("exit %d, want 1 (blocked)", res.code)
			}
			if (c.rule == "" || c.warn) && res.code != 0 {
				t.Errorf("exit %d, want 0\n%s", res.code, res.stdout)
			}
			if c.note != "" && !strings.Contains(res.stdout, c.note) {
				t.Errorf("no note containing %q:\n%s", c.note, res.stdout)
			}
		})
	}
}

// shortGuarded is a test the -short flag skips.
const shortGuarded = `
func TestSubSlow(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	if Sub(9, 4) != 5 {
		t.Fatal("Sub")
	}
}
`

// TestCompareCIStepsPytest: the same measurement for a pytest project
// whose CI step turns slow tests on with an env variable the collectors
// do not set: HEAD's workflow dropping it hides a broken function (a
// bypass) or, with the code intact, runs fewer tests (narrowed).
func TestCompareCIStepsPytest(t *testing.T) {
	t.Parallel()
	slow(t)
	py := pytestPython(t)
	workflow := "on: pull_request\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - name: Tests\n        run: " + py + " -m pytest -p no:cacheprovider tests\n        env:\n          RUN_SLOW: \"1\"\n"
	slowTest := "import os\n\nimport pytest\n\nfrom calc import cube\n\n\n@pytest.mark.skipif(not os.environ.get(\"RUN_SLOW\"), reason=\"slow\")\ndef test_cube_slow():\n    assert cube(2) == 8\n"
	cube := "\n\ndef cube(x):\n    return x * x * x\n"
	for _, c := range []struct {
		name, calc, rule string
	}{
		{"env dropped, code broken", strings.Replace(calcPy+cube, "return x * x * x", "return x * x", 1), "ci-step-bypassed"},
		{"env dropped, code intact", "", "ci-step-narrowed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := pytestProject(t)
			r.write("calc.py", calcPy+cube)
			r.write("tests/test_slow.py", slowTest)
			r.write(".github/workflows/ci.yml", workflow)
			base := r.commit("slow tests in CI")
			r.write(".github/workflows/ci.yml", strings.Replace(workflow, "        env:\n          RUN_SLOW: \"1\"\n", "", 1))
			if c.calc != "" {
				r.write("calc.py", c.calc)
			}
			r.commit(c.name)
			res := runGate(t, r.dir, "", "compare", "--format", "json", base, "HEAD")
			if res.code != 1 {
				t.Fatalf("exit %d, want 1\n%s\n%s", res.code, res.stdout, res.stderr)
			}
			if rep := parseCompare(t, res.stdout); !rep.has("validation_bypass", c.rule, "") {
				t.Errorf("no %s finding:\n%s", c.rule, res.stdout)
			}
		})
	}
}

// TestCompareCIStepsPackageScripts: a step running `npm test` runs
// whatever package.json's scripts say; HEAD's package.json keeps its
// dependencies and gets BASE's scripts back for BASE's run. The project's
// JavaScript (node's own test runner) is measured by no collector, only
// by its CI.
func TestCompareCIStepsPackageScripts(t *testing.T) {
	t.Parallel()
	slow(t)
	workflow := "on: pull_request\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm test\n"
	pkg := func(test string) string {
		return "{\n  \"name\": \"calc\",\n  \"version\": \"1.0.0\",\n  \"private\": true,\n  \"scripts\": {\n    \"test\": \"" + test + "\"\n  }\n}\n"
	}
	lib := "exports.cube = (x) => x * x * x;\n"
	libTest := "const test = require('node:test');\nconst assert = require('node:assert');\nconst { cube } = require('./lib.js');\n\ntest('cube', () => { assert.strictEqual(cube(2), 8); });\n"
	for _, c := range []struct {
		name, script, lib, rule string
	}{
		{"test script made to pass", "node --test || true", "exports.cube = (x) => x * x;\n", "ci-step-bypassed"},
		{"test script reworded", "node --test --test-reporter=spec", "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := goModule(t)
			r.write("package.json", pkg("node --test"))
			r.write("lib.js", lib)
			r.write("lib.test.js", libTest)
			r.write(".github/workflows/ci.yml", workflow)
			base := r.commit("js")
			r.write("package.json", pkg(c.script))
			if c.lib != "" {
				r.write("lib.js", c.lib)
			}
			r.commit(c.name)
			res := runGate(t, r.dir, "", "compare", "--format", "json", base, "HEAD")
			rep := parseCompare(t, res.stdout)
			got := rep.has("validation_bypass", "ci-step-bypassed", "")
			if got != (c.rule != "") {
				t.Fatalf("ci-step-bypassed = %v, want %v (exit %d)\n%s\n%s", got, !got, res.code, res.stdout, res.stderr)
			}
		})
	}
}

// TestCompareCIStepsCollectNone: with --collect none nothing of the
// repository may run, the CI's steps included: a change to the CI program
// measured from report files gets a note, no run.
func TestCompareCIStepsCollectNone(t *testing.T) {
	t.Parallel()
	slow(t)
	r := goModule(t)
	r.write("Makefile", stepMakefile)
	r.write(".github/workflows/ci.yml", stepWorkflow)
	base := r.commit("ci")
	r.write("Makefile", "test:\n\tgo test -count=1 ./...\n")
	r.commit("the recipe changed")
	out := t.TempDir()
	report := filepath.Join(out, "r.json")
	if err := os.WriteFile(report, []byte(runCmd(t, r.dir, "go", "test", "-json", "./...")), 0o644); err != nil {
		t.Fatal(err)
	}
	res := runGate(t, r.dir, "", "compare", "--format", "json", "--collect", "none", "--report", "gotest="+report, "--base-report", "gotest="+report, base)
	if res.code > 1 || !strings.Contains(res.stdout, "CI test steps: not run: collect is none") {
		t.Fatalf("exit %d, no note that the steps did not run:\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	if strings.Contains(res.stdout, "measured: on HEAD's code") {
		t.Errorf("a step was run:\n%s", res.stdout)
	}
}
