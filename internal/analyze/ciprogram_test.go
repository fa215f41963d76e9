package analyze

import (
	"os"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// progWorkflow is ci's test workflow (a test job, a lint step, a nightly
// job allowed to fail), edited by the tests here.
func progWorkflow(tb testing.TB) string {
	tb.Helper()
	b, err := os.ReadFile("ci/testdata/workflow.yml")
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

// makeWorkflow is a pull request workflow whose one step runs run.
func makeWorkflow(run string) string {
	return "on: [pull_request]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: " + run + "\n"
}

// TestCIProgram: CI read as a program. Each cheat keeps the check command
// and drops its exit status, or stops the workflow from running; each
// look-alike changes the script without losing a status.
func TestCIProgram(t *testing.T) {
	const wf = ".github/workflows/ci.yml"
	edit := func(old, new string) FileChange {
		if !strings.Contains(progWorkflow(t), old) {
			t.Fatalf("%q not in the workflow", old)
		}
		return mod(wf, progWorkflow(t), strings.Replace(progWorkflow(t), old, new, 1))
	}
	const testRun = "          go test -race ./...\n"
	for _, tc := range []struct {
		name  string
		files []FileChange
		rule  string
		line  int
		want  string
	}{
		{"|| echo", []FileChange{edit(testRun, "          go test -race ./... || echo tests failed\n")}, "exit-status-dropped", 14, "`|| echo tests failed` replaces"},
		{"; exit 0 after set +e", []FileChange{edit(testRun, "          set +o errexit\n          go test -race ./...\n          exit 0\n")}, "exit-status-dropped", 15, "`exit 0` follows it"},
		{"backgrounded", []FileChange{edit(testRun, "          go test -race ./... &\n")}, "exit-status-dropped", 14, "background"},
		{"piped into tee", []FileChange{edit(testRun, "          go test -race ./... | tee test.log\n")}, "exit-status-dropped", 14, "no pipefail"},
		{"if ! ... then echo", []FileChange{edit(testRun, "          if ! go test -race ./...; then echo flaky; fi\n")}, "exit-status-dropped", 14, "condition of an `if`"},
		{"subshell with || true", []FileChange{edit(testRun, "          (go test -race ./... || true)\n")}, "exit-status-dropped", 14, "|| true"},
		{"bash -c wrapper", []FileChange{edit(testRun, "          bash -c 'go test -race ./...; exit 0'\n")}, "exit-status-dropped", 14, "exit 0"},
		{"custom shell without -e", []FileChange{edit("          go test -race ./...\n      - name: Lint", "          go test -race ./...\n          echo done\n        shell: bash {0}\n      - name: Lint")}, "exit-status-dropped", 14, "later command"},
		{"lint || exit 0", []FileChange{edit("run: golangci-lint run ./...", "run: golangci-lint run ./... || exit 0")}, "exit-status-dropped", 16, "|| exit 0"},
		{"pull_request trigger removed", []FileChange{edit("  pull_request:\n", "")}, "pr-trigger-removed", 1, "no longer runs on pull requests"},
		{"trigger narrowed to dispatch", []FileChange{edit("on:\n  push:\n    branches: [main]\n  pull_request:\n", "on: workflow_dispatch\n")}, "pr-trigger-removed", 1, "pull_request"},
		{"renamed .disabled", []FileChange{mv(wf, wf+".disabled", progWorkflow(t), progWorkflow(t))}, "workflow-unloaded", 1, "does not load it"},
		{"moved to a subdirectory", []FileChange{mv(wf, ".github/workflows/old/ci.yml", progWorkflow(t), progWorkflow(t))}, "workflow-unloaded", 1, "does not load it"},
		{"makefile || echo", []FileChange{mod("Makefile", "test:\n\tgo test ./...\n", "test:\n\tgo test ./... || echo flaky\n")}, "exit-status-dropped", 2, "replaces"},
		{"makefile ; exit 0", []FileChange{mod("Makefile", "lint:\n\t$(GOLANGCI) run\n\tgo vet ./...\n", "lint:\n\t$(GOLANGCI) run\n\tgo vet ./...; exit 0\n")}, "exit-status-dropped", 3, "exit 0"},
		{"makefile .IGNORE", []FileChange{mod("Makefile", "test:\n\tgo test ./...\n", ".IGNORE:\ntest:\n\tgo test ./...\n")}, "exit-status-dropped", 3, ".IGNORE"},
		{"makefile .IGNORE names the target", []FileChange{mod("Makefile", "test:\n\tgo test ./...\n", ".IGNORE: test\ntest:\n\tgo test ./...\n")}, "exit-status-dropped", 3, "target test"},
		{"makefile MAKEFLAGS -i", []FileChange{mod("Makefile", "test:\n\tgo test ./...\n", "MAKEFLAGS += -i\ntest:\n\tgo test ./...\n")}, "exit-status-dropped", 3, "MAKEFLAGS"},
		{"makefile MAKEFLAGS letters", []FileChange{mod("Makefile", "test:\n\tgo test ./...\n", "MAKEFLAGS += ik\ntest:\n\tgo test ./...\n")}, "exit-status-dropped", 3, "MAKEFLAGS"},
		{"makefile SHELL true", []FileChange{mod("Makefile", "test:\n\tgo test ./...\n", "SHELL := /bin/true\ntest:\n\tgo test ./...\n")}, "exit-status-dropped", 3, "SHELL"},
		{"makefile .ONESHELL exit 0", []FileChange{mod("Makefile", "test:\n\tgo test ./...\n", ".ONESHELL:\ntest:\n\tgo test ./...\n\texit 0\n")}, "exit-status-dropped", 3, "exit 0"},
		{"make -i in a step", []FileChange{mod(".github/workflows/make.yml", makeWorkflow("make test"), makeWorkflow("make -i test"))}, "exit-status-dropped", 6, "make -i"},
		{"make --ignore-errors in a script", []FileChange{mod("scripts/test.sh", "#!/bin/bash\nset -e\nmake test\n", "#!/bin/bash\nset -e\nmake --ignore-errors test\n")}, "exit-status-dropped", 3, "make -i"},
		{"script loses set -e", []FileChange{mod("scripts/test.sh", "#!/bin/bash\nset -e\npytest -q\necho done\n", "#!/bin/bash\npytest -q\necho done\n")}, "exit-status-dropped", 2, "later command"},
		{"script shebang -e dropped", []FileChange{mod("ci/check.sh", "#!/bin/bash -e\nnpm run lint\nnpm test -- --silent > out.txt\necho ok\n", "#!/bin/bash\nnpm run lint\nnpm test -- --silent > out.txt\necho ok\n")}, "exit-status-dropped", 2, "later command"},
		{"lint exit code forced", []FileChange{mod(".golangci.yml", "run:\n  timeout: 5m\n", "run:\n  timeout: 5m\n  issues-exit-code: 0\n")}, "failure-allowed", 3, ""},
		{"flake8 --exit-zero", []FileChange{edit("run: golangci-lint run ./...", "run: flake8 --exit-zero .")}, "failure-allowed", 16, ""},
		{"GOFLAGS -run", []FileChange{edit("    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n", "    runs-on: ubuntu-latest\n    env:\n      GOFLAGS: -run=^$\n    steps:\n      - uses: actions/checkout@v4\n")}, "runner-filter", 10, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := run(tc.files...)
			for _, f := range fs {
				if f.Rule == tc.rule && f.Severity >= gate.SeverityHigh && f.Line == tc.line && strings.Contains(f.Message, tc.want) {
					return
				}
			}
			t.Errorf("want %s at line %d saying %q; got:%s", tc.rule, tc.line, tc.want, dump(fs))
		})
	}

	// set +e before go vet: vet's failure is dropped (go test runs last).
	fs := run(edit("          go vet ./...\n", "          set +e\n          go vet ./...\n"))
	expectFinding(t, fs, gate.ValidationBypass, gate.SeverityCritical, wf, "")

	for _, tc := range []struct {
		name  string
		files []FileChange
	}{
		{"flags added", []FileChange{edit(testRun, "          go test -race -count=1 -coverprofile=c.out ./...\n")}},
		{"|| exit 1 added", []FileChange{edit(testRun, "          go test -race ./... || { echo '::error::tests failed'; exit 1; }\n")}},
		{"pipefail tee", []FileChange{edit(testRun, "          set -o pipefail\n          go test -race ./... | tee test.log\n")}},
		{"shell: bash tee", []FileChange{edit("          go test -race ./...\n      - name: Lint", "          go test -race ./... | tee test.log\n        shell: bash\n      - name: Lint")}},
		{"gotestsum status kept", []FileChange{edit(testRun, "          set +e\n          go test -race -json ./... > test.json\n          status=$?\n          go run ./cmd/report < test.json\n          exit $status\n")}},
		{"retry loop", []FileChange{edit(testRun, "          for i in 1 2 3; do go test -race ./... && break; done\n          go test -race ./...\n")}},
		{"split into a new workflow", []FileChange{edit("      - name: Lint\n        run: golangci-lint run ./...\n", ""), add(".github/workflows/lint.yml", "on: [push, pull_request]\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - run: golangci-lint run ./...\n")}},
		{"renamed to .yaml", []FileChange{mv(wf, ".github/workflows/ci.yaml", progWorkflow(t), progWorkflow(t))}},
		{"optional scheduled job gets || true", []FileChange{edit("      - run: go test -tags slow ./slow/...", "      - run: go test -tags slow ./slow/... || true")}},
		{"push trigger dropped, pull_request kept", []FileChange{edit("  push:\n    branches: [main]\n", "")}},
		{"workflow_dispatch added", []FileChange{edit("  pull_request:\n", "  pull_request:\n  workflow_dispatch:\n")}},
		{"makefile recipe reformatted", []FileChange{mod("Makefile", "test:\n\tgo test ./...\n", "test:\n\t@echo testing\n\t$(GO) test -count=1 \\\n\t\t./...\n")}},
		{"makefile .IGNORE of another target", []FileChange{mod("Makefile", "test:\n\tgo test ./...\n", ".IGNORE: clean\ntest:\n\tgo test ./...\nclean:\n\trm -rf out\n")}},
		{"makefile MAKEFLAGS without -i", []FileChange{mod("Makefile", "test:\n\tgo test ./...\n", "MAKEFLAGS += --no-print-directory -j4\ntest:\n\tgo test ./...\n")}},
		{"makefile SHELL bash", []FileChange{mod("Makefile", "test:\n\tgo test ./...\n", "SHELL := /usr/bin/env bash\ntest:\n\tgo test ./...\n")}},
		{"makefile .ONESHELL with -e", []FileChange{mod("Makefile", "test:\n\tgo test ./...\n", ".ONESHELL:\n.SHELLFLAGS := -ec\ntest:\n\tgo test ./...\n\techo done\n")}},
		{"makefile exit 0 on its own line", []FileChange{mod("Makefile", "test:\n\tgo test ./...\n", "test:\n\tgo test ./...\n\texit 0\n")}},
		{"make -k in a step", []FileChange{mod(".github/workflows/make.yml", makeWorkflow("make test"), makeWorkflow("make -k -j4 test"))}},
		{"script gains set -euo pipefail", []FileChange{mod("scripts/test.sh", "#!/bin/bash\npytest -q\n", "#!/bin/bash\nset -euo pipefail\npytest -q | tee log\n")}},
		{"windows step", []FileChange{edit(testRun, "          go test -race ./...\n        shell: pwsh\n")}},
		// pallets/click b0efabc8ee: a release workflow that stopped parsing.
		{"release workflow broken", []FileChange{mod(".github/workflows/publish.yaml", "on:\n  push:\n    tags: ['*']\njobs:\n  release:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/download-artifact@v4\n        with:\n          pattern: 'x'\n", "on:\n  push:\n    tags: ['*']\njobs:\n  release:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/download-artifact@v4\n        with:\n          pattern: *\n")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := run(tc.files...)
			for _, f := range fs {
				switch f.Rule {
				case "exit-status-dropped", "pr-trigger-removed", "workflow-unloaded", "workflow-unreadable":
					t.Errorf("look-alike reported:%s", dump(fs))
				}
			}
		})
	}
}

// TestCheckWorkflowUnreadable: a workflow that ran checks and no longer
// parses no longer runs them.
func TestCheckWorkflowUnreadable(t *testing.T) {
	fs := run(mod(".github/workflows/ci.yml", progWorkflow(t), progWorkflow(t)+"      - run: *\n"))
	for _, f := range fs {
		if f.Rule == "workflow-unreadable" && f.Severity >= gate.SeverityHigh {
			return
		}
	}
	t.Errorf("want workflow-unreadable:%s", dump(fs))
}

// TestUnparsedScript: a step script that names a check and no longer parses
// as shell is unverified high; one that did not parse at BASE either is not
// news, and a Makefile's make-only lines stay quiet.
func TestUnparsedScript(t *testing.T) {
	const wf = ".github/workflows/ci.yml"
	head := strings.Replace(progWorkflow(t), "          go test -race ./...\n", "          go test -race ./... || {\n", 1)
	fs := run(mod(wf, progWorkflow(t), head))
	expectFinding(t, fs, gate.Unverified, gate.SeverityHigh, wf, "")
	expectNoHigh(t, run(mod(wf, head, head+"\n")))
}

// TestScriptsWithExpressions: ${{ ... }} in a step is substituted by the
// runner before the shell runs; the script still parses and its checks are
// followed (express's ci.yml has both; package ci's test of the same name
// reads the script).
func TestScriptsWithExpressions(t *testing.T) {
	const base = "on: [push, pull_request]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - shell: bash\n        run: |\n          if [[ \"$(cut -d. -f1 <<< \"${{ matrix.node-version }}\")\" -lt 12 ]]; then\n            echo old\n          fi\n          npm run test-ci\n          cp coverage/lcov.info \"coverage/${{ matrix.name }}.lcov\"\n"
	head := strings.Replace(base, "npm run test-ci\n", "npm run test-ci || echo \"${{ matrix.name }} failed\"\n", 1)
	fs := run(mod(".github/workflows/ci.yml", base, head))
	for _, x := range fs {
		if x.Severity >= gate.SeverityCritical && x.Type == gate.ValidationBypass {
			return
		}
	}
	t.Errorf("want the dropped status reported:%s", dump(fs))
}
