package main

// The consumer tests: every machine-readable output is loaded by the program
// that consumes it, at the version .ci/run pins, never only checked against a
// schema we hold. Each test drives the built binary on a real repository and
// then the real consumer on what it wrote. .ci/run installs each consumer and
// sets RALPH_GATE_REQUIRE_<NAME>, under which a missing one fails the test
// instead of skipping it. One file per consumer: consumers_reviewdog,
// consumers_sarif (Microsoft's SARIF multitool), consumers_gitlab
// (gitlab-ci-local), consumers_precommit (pre-commit).

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// cheatRepo is a Go project whose last commit, "make the tests pass", does
// what an agent under pressure does: it deletes TestSub, empties TestAdd's
// assertion, appends `|| true` to the CI test step, adds a //nolint and
// deletes the legacy suite, whose deletion the base's .ralph-gate.yml
// sanctions (so it is reported, suppressed). It returns the base commit.
func cheatRepo(t *testing.T) (*repo, string) {
	t.Helper()
	r := newRepo(t)
	r.write("go.mod", "module example.com/calc\n\ngo 1.26\n")
	r.write("calc.go", calcSrc)
	r.write("calc_test.go", calcTest)
	r.write(".github/workflows/ci.yml", ciWorkflow("go test ./..."))
	r.write("legacy/old_test.go", "package legacy\n\nimport \"testing\"\n\nfunc TestOld(t *testing.T) {\n\tif 1+1 != 2 {\n\t\tt.Fatal(\"math\")\n\t}\n}\n")
	r.write(".ralph-gate.yml", "exceptions:\n  - type: test_deletion\n    path: \"legacy/**\"\n    reason: \"legacy suite replaced by golden files\"\n")
	base := r.commit("base")
	r.write("calc_test.go", "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\t_ = Add(2, 3)\n}\n")
	r.write(".github/workflows/ci.yml", ciWorkflow("go test ./... || true"))
	r.remove("legacy/old_test.go")
	r.write("calc.go", calcSrc+"\n// Div divides.\nfunc Div(a, b int) int { return a / b } //nolint:all\n")
	r.commit("make the tests pass")
	return r, base
}

func ciWorkflow(step string) string {
	return "name: ci\non: [pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: " + step + "\n"
}

// command runs name in dir with env and stdin and returns its exit code and
// its standard output and error; a command that cannot start fails t.
func command(t *testing.T, dir string, env []string, stdin, name string, args ...string) result {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env, cmd.Stdin = dir, env, strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	code := 0
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatalf("%s: %v", name, err)
	}
	return result{code, out.String(), errb.String()}
}
