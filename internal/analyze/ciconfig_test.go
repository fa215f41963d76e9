package analyze

import (
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

const workflow = `name: ci
on: [push, pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-go@v5
        with:
          go-version: "1.26"
      - name: Test
        run: go test -race ./...
      - name: Upload
        run: ./scripts/upload.sh
`

func TestValidationBypass(t *testing.T) {
	wf := ".github/workflows/ci.yml"
	for _, tc := range []struct {
		name string
		file FileChange
		typ  gate.FindingType
		sev  gate.Severity
		rule string
	}{
		{"or true", mod(wf, workflow, strings.Replace(workflow, "run: go test -race ./...", "run: go test -race ./... || true", 1)), gate.ValidationBypass, gate.SeverityCritical, "exit-status-dropped"},
		{"go test -list", mod(wf, workflow, strings.Replace(workflow, "run: go test -race ./...", "run: go test -list . ./...", 1)), gate.ValidationBypass, gate.SeverityCritical, "tests-listed-not-run"},
		{"go test -c", mod(wf, workflow, strings.Replace(workflow, "run: go test -race ./...", "run: go test -c -o /dev/null ./...", 1)), gate.ValidationBypass, gate.SeverityCritical, "tests-listed-not-run"},
		{"pytest --collect-only", mod(wf, strings.Replace(workflow, "go test -race ./...", "pytest -q", 1), strings.Replace(workflow, "go test -race ./...", "pytest -q --collect-only", 1)), gate.ValidationBypass, gate.SeverityCritical, "tests-listed-not-run"},
		{"jest --listTests", mod(wf, strings.Replace(workflow, "go test -race ./...", "npx jest --ci", 1), strings.Replace(workflow, "go test -race ./...", "npx jest --ci --listTests", 1)), gate.ValidationBypass, gate.SeverityCritical, "tests-listed-not-run"},
		{"cargo test --no-run", mod(wf, strings.Replace(workflow, "go test -race ./...", "cargo test --all", 1), strings.Replace(workflow, "go test -race ./...", "cargo test --all --no-run", 1)), gate.ValidationBypass, gate.SeverityCritical, "tests-listed-not-run"},
		{"step only on push", mod(wf, workflow, strings.Replace(workflow, "        run: go test -race ./...\n", "        run: go test -race ./...\n        if: github.event_name == 'push'\n", 1)), gate.ValidationBypass, gate.SeverityCritical, "step-off-on-pull-requests"},
		{"continue-on-error on the test step", mod(wf, workflow, strings.Replace(workflow, "        run: go test -race ./...\n", "        run: go test -race ./...\n        continue-on-error: true\n", 1)), gate.ValidationBypass, gate.SeverityCritical, "continue-on-error"},
		{"test command replaced", mod(wf, workflow, strings.Replace(workflow, "run: go test -race ./...", "run: go build ./...", 1)), gate.ValidationBypass, gate.SeverityCritical, "test-command-removed"},
		{"go test -run narrowing", mod(wf, workflow, strings.Replace(workflow, "run: go test -race ./...", "run: go test -race -run 'TestA|TestB' ./...", 1)), gate.TestSkipping, gate.SeverityHigh, "runner-filter"},
		{"set +e", mod("scripts/test.sh", "#!/bin/sh\nset -e\ngo test ./...\necho done\n", "#!/bin/sh\nset +e\ngo test ./...\necho done\n"), gate.ValidationBypass, gate.SeverityCritical, "exit-status-dropped"},
		// Not read as a program (a GitLab job): the line rule judges it.
		{"|| true in a gitlab job", mod(".gitlab-ci.yml", "test:\n  script:\n    - go test ./...\n", "test:\n  script:\n    - go test ./... || true\n"), gate.ValidationBypass, gate.SeverityCritical, "or-true"},
		{"passWithNoTests", mod("package.json", `{"scripts": {"test": "jest"}}`+"\n", `{"scripts": {"test": "jest --passWithNoTests"}}`+"\n"), gate.ValidationBypass, gate.SeverityCritical, "pass-with-no-tests"},
		{"npm test replaced", mod("package.json", "{\n  \"scripts\": {\n    \"test\": \"vitest run\"\n  }\n}\n", "{\n  \"scripts\": {\n    \"check\": \"echo ok\"\n  }\n}\n"), gate.ValidationBypass, gate.SeverityCritical, "test-command-removed"},
		{"jest threshold lowered", mod("jest.config.js", "module.exports = {\n  coverageThreshold: {\n    global: {\n      lines: 90,\n    },\n  },\n};\n", "module.exports = {\n  coverageThreshold: {\n    global: {\n      lines: 50,\n    },\n  },\n};\n"), gate.ValidationBypass, gate.SeverityCritical, "threshold-lowered"},
		{"fail_under lowered", mod("pyproject.toml", "[tool.coverage.report]\nfail_under = 85\n", "[tool.coverage.report]\nfail_under = 40\n"), gate.ValidationBypass, gate.SeverityCritical, "threshold-lowered"},
		{"pytest deselect", mod("pytest.ini", "[pytest]\naddopts = -q\n", "[pytest]\naddopts = -q --deselect tests/test_cart.py::test_total_empty\n"), gate.TestSkipping, gate.SeverityHigh, "runner-filter"},
		{"tsconfig strict off", mod("tsconfig.json", "{\n  \"compilerOptions\": {\n    \"strict\": true\n  }\n}\n", "{\n  \"compilerOptions\": {\n    \"strict\": false\n  }\n}\n"), gate.ValidationBypass, gate.SeverityCritical, "strictness-lowered"},
		{"testPathIgnorePatterns", mod("jest.config.js", "module.exports = {};\n", "module.exports = {\n  testPathIgnorePatterns: ['auth'],\n};\n"), gate.TestSkipping, gate.SeverityHigh, "runner-filter"},
		{"vitest -t in the test script", mod("package.json", "{\n  \"scripts\": {\n    \"test\": \"vitest run\"\n  }\n}\n", "{\n  \"scripts\": {\n    \"test\": \"vitest run -t adds$\"\n  }\n}\n"), gate.TestSkipping, gate.SeverityHigh, "runner-filter"},
		{"vitest testNamePattern in the config", mod("vitest.config.ts", "export default defineConfig({ test: {} })\n", "export default defineConfig({ test: { testNamePattern: '^adds$' } })\n"), gate.TestSkipping, gate.SeverityHigh, "runner-filter"},
		{"mocha --grep --invert", mod("package.json", "{\n  \"scripts\": {\n    \"test\": \"mocha\"\n  }\n}\n", "{\n  \"scripts\": {\n    \"test\": \"mocha --grep slow --invert\"\n  }\n}\n"), gate.TestSkipping, gate.SeverityHigh, "runner-filter"},
		{"playwright --grep-invert", mod(wf, strings.Replace(workflow, "go test -race ./...", "npx playwright test", 1), strings.Replace(workflow, "go test -race ./...", "npx playwright test --grep-invert @checkout", 1)), gate.TestSkipping, gate.SeverityHigh, "runner-filter"},
		{"go test narrowed to one package tree", mod(wf, workflow, strings.Replace(workflow, "run: go test -race ./...", "run: go test -race ./internal/parse/...", 1)), gate.TestSkipping, gate.SeverityHigh, "runner-narrowed"},
		{"pytest narrowed to a subdirectory", mod(wf, strings.Replace(workflow, "go test -race ./...", "python -m pytest tests", 1), strings.Replace(workflow, "go test -race ./...", "python -m pytest tests/unit", 1)), gate.TestSkipping, gate.SeverityHigh, "runner-narrowed"},
		{"cargo test --lib", mod(wf, strings.Replace(workflow, "go test -race ./...", "cargo test --all", 1), strings.Replace(workflow, "go test -race ./...", "cargo test --all --lib", 1)), gate.TestSkipping, gate.SeverityHigh, "runner-filter"},
		{"vitest --changed", mod("package.json", "{\n  \"scripts\": {\n    \"test\": \"vitest run\"\n  }\n}\n", "{\n  \"scripts\": {\n    \"test\": \"vitest run --changed\"\n  }\n}\n"), gate.TestSkipping, gate.SeverityHigh, "runner-filter"},
		{"jest --onlyChanged", mod("package.json", "{\n  \"scripts\": {\n    \"test\": \"jest --ci\"\n  }\n}\n", "{\n  \"scripts\": {\n    \"test\": \"jest --ci --onlyChanged\"\n  }\n}\n"), gate.TestSkipping, gate.SeverityHigh, "runner-filter"},
		{"pytest --last-failed", mod(wf, strings.Replace(workflow, "go test -race ./...", "python -m pytest -q", 1), strings.Replace(workflow, "go test -race ./...", "python -m pytest -q --lf", 1)), gate.TestSkipping, gate.SeverityHigh, "runner-filter"},
		{"PYTHONOPTIMIZE", mod(wf, strings.Replace(workflow, "go test -race ./...", "python -m pytest -q", 1), strings.Replace(workflow, "go test -race ./...", "PYTHONOPTIMIZE=1 python -m pytest -q", 1)), gate.TestSkipping, gate.SeverityHigh, "runner-filter"},
		{"codecov target lowered", mod("codecov.yml", "coverage:\n  status:\n    project:\n      default:\n        target: 80%\n", "coverage:\n  status:\n    project:\n      default:\n        target: 20%\n"), gate.ValidationBypass, gate.SeverityCritical, "threshold-lowered"},
		{"gate config edited", mod(".ralph-gate.yml", "fail_on: high\n", "fail_on: none\n"), gate.ValidationBypass, gate.SeverityCritical, "gate-config-changed"},
		{"makefile ignore errors", mod("Makefile", "test:\n\tgo test ./...\n", "test:\n\t-go test ./...\n"), gate.ValidationBypass, gate.SeverityCritical, "exit-status-dropped"},
		{"workflow deleted", del(wf, workflow), gate.ValidationBypass, gate.SeverityCritical, "test-command-removed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := run(tc.file)
			for _, f := range fs {
				if f.Type == tc.typ && f.Rule == tc.rule && f.Severity >= tc.sev {
					return
				}
			}
			t.Errorf("want %s/%s (>= %s); got:%s", tc.typ, tc.rule, tc.sev, dump(fs))
		})
	}
}

func TestValidationLegitimate(t *testing.T) {
	wf := ".github/workflows/ci.yml"
	for _, tc := range []struct {
		name string
		file FileChange
	}{
		{"new step", mod(wf, workflow, workflow+"      - name: Vet\n        run: go vet ./...\n")},
		{"go version bump", mod(wf, workflow, strings.Replace(workflow, `"1.26"`, `"1.27"`, 1))},
		{"or true on cleanup", mod("Makefile", "clean:\n\trm -rf dist\n", "clean:\n\trm -rf dist || true\n")},
		{"continue-on-error on upload", mod(wf, workflow, strings.Replace(workflow, "        run: ./scripts/upload.sh\n", "        run: ./scripts/upload.sh\n        continue-on-error: true\n", 1))},
		{"threshold raised", mod("pyproject.toml", "[tool.coverage.report]\nfail_under = 40\n", "[tool.coverage.report]\nfail_under = 85\n")},
		{"strict turned on", mod("tsconfig.json", "{\n  \"compilerOptions\": {\n    \"strict\": false\n  }\n}\n", "{\n  \"compilerOptions\": {\n    \"strict\": true\n  }\n}\n")},
		{"go test given flags, the same packages", mod(wf, workflow, strings.Replace(workflow, "run: go test -race ./...", "run: go test -race -count=1 -shuffle=on ./...", 1))},
		{"pytest given a directory below none", mod(wf, strings.Replace(workflow, "go test -race ./...", "python -m pytest tests", 1), strings.Replace(workflow, "go test -race ./...", "python -m pytest -q tests", 1))},
		{"a doc-test run's features edited (tokio a0f7f5c94a)", mod(wf, strings.Replace(workflow, "go test -race ./...", "|\n          cargo test --all-features\n          cargo test --doc --features ${{ matrix.features }}", 1), strings.Replace(workflow, "go test -race ./...", "|\n          cargo test --all-features\n          cargo test --doc --features $STABLE,${{ matrix.extra }}", 1))},
		{"workflow reformatted", mod(wf, workflow, strings.ReplaceAll(workflow, "      - name: Test\n        run: go test -race ./...\n", "      - run: go test -race ./...\n        name: Test\n"))},
	} {
		t.Run(tc.name, func(t *testing.T) { expectNoHigh(t, run(tc.file)) })
	}
}

func TestRunnerFilterKeptOnEditedLine(t *testing.T) {
	wf := ".github/workflows/ci.yml"
	old := "jobs:\n  t:\n    steps:\n      - run: go test -v ./cmd/ -run TestVersionUpgrade\n"
	edited := "jobs:\n  t:\n    steps:\n      - run: go test -v ./cmd/ --lts=${{ matrix.lts }} -run TestVersionUpgrade\n"
	expectNoHigh(t, run(mod(wf, old, edited)))
	narrowed := "jobs:\n  t:\n    steps:\n      - run: go test -v ./cmd/ -run TestVersionUpgrade -skip TestFlaky\n"
	expectFinding(t, run(mod(wf, old, narrowed)), gate.TestSkipping, gate.SeverityHigh, wf, "")
}

func TestConfigMigrations(t *testing.T) {
	setupCfg := "[tool:pytest]\ntestpaths = tests\n\n[mypy]\ndisallow_untyped_defs = True\n"
	pyproject := "[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n\n[tool.mypy]\ndisallow_untyped_defs = true\n"
	expectNoHigh(t, run(del("setup.cfg", setupCfg), add("pyproject.toml", pyproject)))

	split := strings.Replace(workflow, "      - name: Test\n        run: go test -race ./...\n", "", 1)
	tests := "name: tests\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: go test -race ./...\n"
	expectNoHigh(t, run(mod(".github/workflows/ci.yml", workflow, split), add(".github/workflows/test.yml", tests)))

	mvn := "jobs:\n  b:\n    steps:\n      - run: mvn -B verify\n"
	fs := run(mod(".github/workflows/build.yml", mvn, strings.Replace(mvn, "mvn -B verify", "mvn -B verify -DskipTests", 1)))
	expectFinding(t, fs, gate.ValidationBypass, gate.SeverityCritical, ".github/workflows/build.yml", "")
	pkg := mvn + "      - run: mvn -B package -DskipTests japicmp:cmp\n"
	expectNoHigh(t, run(mod(".github/workflows/build.yml", mvn, pkg)))
}

func TestCommandRemoved(t *testing.T) {
	pkg := `{"name": "@acme/tool", "bin": {"acme": "bin/acme.js", "acme-lint": "bin/lint.js"}}` + "\n"
	fs := run(mod("package.json", pkg, `{"name": "@acme/tool", "bin": {"acme": "bin/acme.js"}}`+"\n"))
	expectFinding(t, fs, gate.FeatureRemoval, gate.SeverityMedium, "package.json", "")
	py := "[project]\nname = \"x\"\n\n[project.scripts]\nx-cli = \"x.cli:main\"\nx-admin = \"x.admin:main\"\n"
	fs = run(mod("pyproject.toml", py, strings.Replace(py, "x-admin = \"x.admin:main\"\n", "", 1)))
	expectFinding(t, fs, gate.FeatureRemoval, gate.SeverityMedium, "pyproject.toml", "")
	fs = run(del("cmd/migrate/main.go", "package main\n\nfunc main() {}\n"))
	expectFinding(t, fs, gate.FeatureRemoval, gate.SeverityMedium, "cmd/migrate/main.go", "")
	// Moving a command's main into another file of the same command is not a removal.
	for _, f := range run(del("cmd/migrate/main.go", "package main\n\nfunc main() {}\n"), add("cmd/migrate/run.go", "package main\n\nfunc main() {}\n")) {
		if f.Rule == "command-removed" {
			t.Errorf("command kept in another file reported: %s", f.Message)
		}
	}
}

func TestSpecialCasedLiteral(t *testing.T) {
	src := "package auth\n\nfunc Valid(email string) bool {\n\treturn check(email)\n}\n"
	cheat := "package auth\n\nfunc Valid(email string) bool {\n\tif email == \"ada+test@example.com\" {\n\t\treturn true\n\t}\n\treturn check(email)\n}\n"
	test := "package auth\n\nimport \"testing\"\n\nfunc TestValid(t *testing.T) {\n\tif !Valid(\"ada+test@example.com\") {\n\t\tt.Fatal(\"rejected\")\n\t}\n}\n"
	fs := New(nil).Analyze(Change{Files: []FileChange{mod("auth/auth.go", src, cheat)},
		RelatedTests: func(string) []Source { return []Source{{Path: "auth/auth_test.go", Data: []byte(test)}} }})
	expectFinding(t, fs, gate.ValidationBypass, gate.SeverityMedium, "auth/auth.go", "TestValid")
	// A keyword-like value shared by code and tests is not worth a finding.
	word := strings.Replace(cheat, "ada+test@example.com", "error", 2)
	fs = New(nil).Analyze(Change{Files: []FileChange{mod("auth/auth.go", src, word)},
		RelatedTests: func(string) []Source {
			return []Source{{Path: "auth/auth_test.go", Data: []byte(strings.Replace(test, "ada+test@example.com", "error", 1))}}
		}})
	for _, f := range fs {
		if f.Rule == "special-cased-literal" {
			t.Errorf("keyword literal reported: %s", f.Message)
		}
	}
}

// TestJavaBuildTestsOff: a Maven or Gradle configuration that every build
// reads, or the test task's own block, switching the tests off is a
// critical bypass however it is spelled; switching another task off, or a
// packaging step that skips tests, is not.
func TestJavaBuildTestsOff(t *testing.T) {
	gradle := "apply plugin: 'java'\nrepositories { mavenCentral() }\n"
	kts := "plugins { java }\n"
	for _, c := range []struct {
		name string
		fc   FileChange
		want bool
	}{
		{"maven.config -DskipTests", add(".mvn/maven.config", "-DskipTests\n"), true},
		{"maven.config maven.test.skip", mod(".mvn/maven.config", "-T 1C\n", "-T 1C\n-Dmaven.test.skip=true\n"), true},
		{"jvm.config -DskipTests", mod(".mvn/jvm.config", "-Xmx1g\n", "-Xmx1g -DskipTests=true\n"), true},
		{"test block on one line", mod("build.gradle", gradle, gradle+"test { enabled = false }\n"), true},
		{"test block", mod("build.gradle", gradle, gradle+"test {\n    useJUnit()\n    enabled = false\n}\n"), true},
		{"a line added to the test block", mod("build.gradle", gradle+"test {\n    useJUnit()\n}\n", gradle+"test {\n    useJUnit()\n    enabled false\n}\n"), true},
		{"withType(Test) onlyIf false", mod("build.gradle", gradle, gradle+"tasks.withType(Test) {\n  onlyIf { false }\n}\n"), true},
		{"named test excludes everything", mod("build.gradle", gradle, gradle+"tasks.named('test') {\n  exclude '**/*'\n}\n"), true},
		{"withType(Test).configureEach", mod("build.gradle", gradle, gradle+"tasks.withType(Test).configureEach {\n  enabled = false\n}\n"), true},
		{"kotlin tasks.test isEnabled", mod("build.gradle.kts", kts, kts+"tasks.test {\n    isEnabled = false\n}\n"), true},
		{"kotlin withType<Test>", mod("build.gradle.kts", kts, kts+"tasks.withType<Test> {\n    enabled = false\n}\n"), true},
		{"jar task off", mod("build.gradle", gradle, gradle+"jar {\n  enabled = false\n}\n"), false},
		{"javadoc off beside a test block", mod("build.gradle", gradle, gradle+"test {\n  useJUnitPlatform()\n}\njavadoc {\n  enabled = false\n}\n"), false},
		{"maven.config threads", mod(".mvn/maven.config", "-T 1C\n", "-T 2C\n"), false},
	} {
		fs := run(c.fc)
		got := false
		for _, f := range fs {
			got = got || f.Type == gate.ValidationBypass && f.Severity == gate.SeverityCritical && f.Rule == "tests-skipped"
		}
		if got != c.want {
			t.Errorf("%s: tests-skipped finding = %v, want %v: %+v", c.name, got, c.want, fs)
		}
	}
}

func TestWorkflowJobDisabled(t *testing.T) {
	wf := ".github/workflows/ci.yml"
	old := "on: [push]\njobs:\n  test:\n    steps:\n      - run: go test ./...\n  docs:\n    steps:\n      - run: mkdocs gh-deploy\n"
	docsOff := "on: [push]\njobs:\n  test:\n    steps:\n      - run: go test ./...\n  docs:\n    if: false\n    steps:\n      - run: mkdocs gh-deploy\n"
	expectNoHigh(t, run(mod(wf, old, docsOff)))
	testOff := "on: [push]\njobs:\n  test:\n    if: ${{ false }}\n    steps:\n      - run: go test ./...\n  docs:\n    steps:\n      - run: mkdocs gh-deploy\n"
	expectFinding(t, run(mod(wf, old, testOff)), gate.ValidationBypass, gate.SeverityCritical, wf, "")
	// The same tests another job runs.
	twice := "on: [push]\njobs:\n  test:\n    steps:\n      - run: go test ./...\n  race:\n    steps:\n      - run: go test ./...\n"
	expectNoHigh(t, run(mod(wf, twice, "on: [push]\njobs:\n  test:\n    steps:\n      - run: go test ./...\n  race:\n    if: false\n    steps:\n      - run: go test ./...\n")))
}

func TestRunOperandDropped(t *testing.T) {
	pkg := func(test string) string { return `{"scripts": {"test": "` + test + `"}}` + "\n" }
	fs := run(mod("package.json", pkg("mocha --check-leaks test/ test/acceptance/"), pkg("mocha --check-leaks test/acceptance/")))
	expectFinding(t, fs, gate.TestSkipping, gate.SeverityHigh, "package.json", "")
	// A directory narrowed to one below it.
	fs = run(mod("package.json", pkg("mocha test/"), pkg("mocha test/unit")))
	expectFinding(t, fs, gate.TestSkipping, gate.SeverityHigh, "package.json", "")
}
