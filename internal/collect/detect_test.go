package collect

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/config"
)

// fakeTools makes a directory of stand-in executables and puts only it on
// PATH, so detection sees exactly these tools installed.
func fakeTools(t *testing.T, scripts map[string]string) {
	t.Helper()
	bin := t.TempDir()
	for name, body := range scripts {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin)
}

func TestDetect(t *testing.T) {
	goTest := config.Collector{
		Name:  "go test",
		Argv:  []string{"go", "test", "-json", "-coverprofile={out}/go-cover.out", "./..."},
		Tests: true, Runner: "go",
		Reports: []config.ReportSpec{
			{Format: "gotest", Stdout: true},
			{Format: "coverprofile", Path: "{out}/go-cover.out"},
		},
	}
	pytestJUnit := config.ReportSpec{Format: "junit", Path: "{out}/pytest-junit.xml"}
	// python3 stand-ins: every module importable, or all but pytest_cov.
	pythonAll := map[string]string{"python3": "exit 0"}
	pythonNoCov := map[string]string{"python3": `[ "$2" = "import pytest_cov" ] && exit 1; exit 0`}
	pythonBare := map[string]string{"python3": `[ "$2" = "import pytest" ] && exit 0; exit 1`}
	node := map[string]string{"node": "exit 0", "pnpm": "exit 0", "npm": "exit 0", "npx": "exit 0", "yarn": "exit 0"}

	tests := []struct {
		name      string
		files     map[string]string
		tools     map[string]string
		want      []config.Collector
		wantNotes []string
	}{
		{
			name:  "go module",
			files: map[string]string{"go.mod": "module m\n", "m.go": "package m\n"},
			tools: map[string]string{"go": "exit 0"},
			want:  []config.Collector{goTest},
		},
		{
			name:  "go workspace",
			files: map[string]string{"go.work": "go 1.22\nuse ./a\n", "a/go.mod": "module a\n"},
			tools: map[string]string{"go": "exit 0"},
			want:  []config.Collector{goTest},
		},
		{
			name:      "go not installed",
			files:     map[string]string{"go.mod": "module m\n"},
			wantNotes: []string{"collector go test: tool go is not installed"},
		},
		{
			name: "vitest with pnpm, coverage, tsc and eslint",
			files: map[string]string{
				"package.json":     `{"devDependencies": {"vitest": "^1", "@vitest/coverage-v8": "^1", "typescript": "^5", "eslint": "^9"}}`,
				"pnpm-lock.yaml":   "lockfileVersion: '6.0'\n",
				"tsconfig.json":    "{}\n",
				"eslint.config.js": "export default [];\n",
			},
			tools: node,
			want: []config.Collector{
				{Name: "pnpm install", Argv: []string{"pnpm", "install", "--frozen-lockfile"}},
				{
					Name: "vitest",
					Argv: []string{"pnpm", "exec", "vitest", "run", "--reporter=default", "--reporter=junit", "--outputFile.junit={out}/node-junit.xml",
						"--coverage.enabled", "--coverage.reporter=lcov", "--coverage.reportsDirectory={out}/node-coverage"},
					Tests: true, Runner: "vitest",
					Reports: []config.ReportSpec{
						{Format: "junit", Path: "{out}/node-junit.xml"},
						{Format: "lcov", Path: "{out}/node-coverage/lcov.info"},
					},
				},
				{Name: "tsc", Argv: []string{"./node_modules/.bin/tsc", "--noEmit", "--pretty", "false"},
					Reports: []config.ReportSpec{{Format: "tsc", Stdout: true}}},
				{Name: "eslint", Argv: []string{"pnpm", "exec", "eslint", "--format", "json", "--output-file", "{out}/eslint.json", "."},
					Reports: []config.ReportSpec{{Format: "eslint", Path: "{out}/eslint.json"}}},
			},
		},
		{
			name: "jest with jest-junit and npm",
			files: map[string]string{
				"package.json":      `{"devDependencies": {"jest": "^29", "jest-junit": "^16"}}`,
				"package-lock.json": "{}\n",
			},
			tools: node,
			want: []config.Collector{
				{Name: "npm install", Argv: []string{"npm", "ci"}},
				{
					Name: "jest",
					Argv: []string{"npx", "--no", "--", "jest", "--ci", "--reporters=default", "--reporters=jest-junit",
						"--coverage", "--coverageReporters=lcov", "--coverageDirectory={out}/node-coverage"},
					Env:   map[string]string{"JEST_JUNIT_OUTPUT_DIR": "{out}", "JEST_JUNIT_OUTPUT_NAME": "node-junit.xml"},
					Tests: true, Runner: "jest",
					Reports: []config.ReportSpec{
						{Format: "junit", Path: "{out}/node-junit.xml"},
						{Format: "lcov", Path: "{out}/node-coverage/lcov.info"},
					},
				},
			},
		},
		{
			name:      "jest without jest-junit",
			files:     map[string]string{"package.json": `{"devDependencies": {"jest": "^29"}}`, "yarn.lock": "\n"},
			tools:     node,
			wantNotes: []string{"collector jest: jest without jest-junit: configure a collector in .ralph-gate.yml"},
		},
		{
			name:  "vitest, yarn not installed",
			files: map[string]string{"package.json": `{"devDependencies": {"vitest": "^1"}}`, "yarn.lock": "\n"},
			tools: map[string]string{"node": "exit 0"},
			wantNotes: []string{
				"collector vitest: coverage not measured (no @vitest/coverage-v8 or @vitest/coverage-istanbul in package.json)",
				"collector vitest: tool yarn is not installed",
			},
		},
		{
			name:      "tsconfig without typescript",
			files:     map[string]string{"package.json": `{"dependencies": {}}`, "tsconfig.json": "{}\n"},
			tools:     node,
			wantNotes: []string{"collector tsc: typescript is not a dependency in package.json, so there is no ./node_modules/.bin/tsc to run"},
		},
		{
			name:      "package.json that is not JSON",
			files:     map[string]string{"package.json": `{"devDependencies": `},
			tools:     node,
			wantNotes: []string{"package.json: not valid JSON (unexpected end of JSON input); JavaScript collectors not detected"},
		},
		{
			name:  "pytest.ini with pytest-cov",
			files: map[string]string{"pytest.ini": "[pytest]\n", "app.py": "x = 1\n"},
			tools: pythonAll,
			want: []config.Collector{{
				Name:  "pytest",
				Argv:  []string{"python3", "-m", "pytest", "--junitxml={out}/pytest-junit.xml", "--cov", "--cov-report=xml:{out}/pytest-coverage.xml"},
				Tests: true, Runner: "pytest",
				Reports: []config.ReportSpec{pytestJUnit,
					{Format: "cobertura", Path: "{out}/pytest-coverage.xml"}},
			}},
		},
		{
			name:  "pyproject pytest section with coverage.py only",
			files: map[string]string{"pyproject.toml": "[project]\nname = \"x\"\n\n[tool.pytest.ini_options]\naddopts = \"-q\"\n"},
			tools: pythonNoCov,
			want: []config.Collector{
				{
					Name:  "pytest",
					Argv:  []string{"python3", "-m", "coverage", "run", "-m", "pytest", "--junitxml={out}/pytest-junit.xml"},
					Env:   map[string]string{"COVERAGE_FILE": "{out}/pytest.coverage"},
					Tests: true, Runner: "pytest",
					Reports: []config.ReportSpec{pytestJUnit},
				},
				{
					Name:    "coverage xml",
					Argv:    []string{"python3", "-m", "coverage", "xml", "-o", "{out}/pytest-coverage.xml"},
					Env:     map[string]string{"COVERAGE_FILE": "{out}/pytest.coverage"},
					Reports: []config.ReportSpec{{Format: "cobertura", Path: "{out}/pytest-coverage.xml"}},
				},
			},
		},
		{
			name:      "tests directory, no coverage tool",
			files:     map[string]string{"tests/test_app.py": "def test_x():\n    assert True\n"},
			tools:     pythonBare,
			want:      []config.Collector{{Name: "pytest", Argv: []string{"python3", "-m", "pytest", "--junitxml={out}/pytest-junit.xml"}, Tests: true, Runner: "pytest", Reports: []config.ReportSpec{pytestJUnit}}},
			wantNotes: []string{"collector pytest: coverage not measured (neither pytest-cov nor coverage.py is installed)"},
		},
		{
			name:      "setup.cfg pytest section, python without pytest",
			files:     map[string]string{"setup.cfg": "[metadata]\nname = x\n[tool:pytest]\ntestpaths = t\n"},
			tools:     map[string]string{"python3": "exit 1"},
			wantNotes: []string{"collector pytest: tool pytest is not installed (python3 -m pytest)"},
		},
		{
			name:      "pytest config, python not installed",
			files:     map[string]string{"conftest.py": "\n"},
			wantNotes: []string{"collector pytest: tool python3 is not installed"},
		},
		{
			name:  "python files without pytest configuration",
			files: map[string]string{"app.py": "x = 1\n", "tests/helper.py": "\n"},
			tools: pythonAll,
		},
		{
			name:  "golangci-lint v2 and ruff",
			files: map[string]string{"go.mod": "module m\n", ".golangci.yml": "version: \"2\"\n", "ruff.toml": "line-length = 100\n"},
			tools: map[string]string{"go": "exit 0", "golangci-lint": "echo 'golangci-lint has version 2.6.2 built with go1.26'", "ruff": "exit 0"},
			want: []config.Collector{
				goTest,
				{Name: "golangci-lint", Argv: []string{"golangci-lint", "run", "--output.json.path={out}/golangci.json", "./..."},
					Reports: []config.ReportSpec{{Format: "golangci", Path: "{out}/golangci.json"}}},
				{Name: "ruff", Argv: []string{"ruff", "check", "--output-format=sarif", "--output-file={out}/ruff.sarif", "--exit-zero", "."},
					Reports: []config.ReportSpec{{Format: "sarif", Path: "{out}/ruff.sarif"}}},
			},
		},
		{
			name:  "golangci-lint v1",
			files: map[string]string{".golangci.yaml": "linters: {}\n"},
			tools: map[string]string{"golangci-lint": "echo 'golangci-lint has version 1.64.8 built with go1.24'"},
			want: []config.Collector{{Name: "golangci-lint", Argv: []string{"golangci-lint", "run", "--out-format=json", "./..."},
				Reports: []config.ReportSpec{{Format: "golangci", Stdout: true}}}},
		},
		{
			name:  "maven project",
			files: map[string]string{"pom.xml": "<project/>\n", "src/main/java/A.java": "class A {}\n"},
			tools: map[string]string{"mvn": "exit 0"},
			want: []config.Collector{{Name: "maven test",
				Argv:  []string{"mvn -B -ntp -Dstyle.color=never -Dmaven.test.failure.ignore=true --fail-at-end test 2>&1"},
				Shell: true, Tests: true, Runner: "maven",
				Reports: []config.ReportSpec{{Format: "maven", Stdout: true}, {Format: "junit", Path: "**/target/surefire-reports/TEST-*.xml"}}}},
		},
		{
			name:      "maven project, mvn not installed",
			files:     map[string]string{"pom.xml": "<project/>\n"},
			wantNotes: []string{"collector maven test: tool mvn is not installed"},
		},
		{
			name:  "gradle project",
			files: map[string]string{"build.gradle": "apply plugin: 'java'\n", "settings.gradle": "rootProject.name = 'a'\n"},
			tools: map[string]string{"gradle": "exit 0"},
			want: []config.Collector{{Name: "gradle test",
				Argv:  []string{"printf '%s\\n' '" + GradleInitScript + "' > '{out}/ralph-gate-init.gradle' && gradle --init-script '{out}/ralph-gate-init.gradle' test --continue --console=plain --no-daemon 2>&1"},
				Shell: true, Tests: true, Runner: "gradle",
				Reports: []config.ReportSpec{{Format: "gradle", Stdout: true}, {Format: "junit", Path: "**/build/test-results/**/TEST-*.xml"}}}},
		},
		{
			name:  "gradle project with its wrapper",
			files: map[string]string{"build.gradle.kts": "plugins { java }\n", "gradlew": "#!/bin/sh\n"},
			tools: map[string]string{"java": "exit 0"},
			want: []config.Collector{{Name: "gradle test",
				Argv:  []string{"printf '%s\\n' '" + GradleInitScript + "' > '{out}/ralph-gate-init.gradle' && sh ./gradlew --init-script '{out}/ralph-gate-init.gradle' test --continue --console=plain --no-daemon 2>&1"},
				Shell: true, Tests: true, Runner: "gradle",
				Reports: []config.ReportSpec{{Format: "gradle", Stdout: true}, {Format: "junit", Path: "**/build/test-results/**/TEST-*.xml"}}}},
		},
		{
			name:      "gradle project, gradle not installed",
			files:     map[string]string{"settings.gradle.kts": "rootProject.name = \"a\"\n"},
			wantNotes: []string{"collector gradle test: tool gradle is not installed"},
		},
		{
			name:      "linters configured, not installed",
			files:     map[string]string{".golangci.yml": "\n", "pyproject.toml": "[tool.ruff]\n"},
			wantNotes: []string{"collector golangci-lint: tool golangci-lint is not installed", "collector ruff: tool ruff is not installed"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir, commit := newRepo(t, tc.files)
			repo := openRepo(t, dir)
			fakeTools(t, tc.tools)
			got, notes, err := Detect(repo, commit)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("collectors (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantNotes, notes); diff != "" {
				t.Errorf("notes (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDetectReadsTheCommitNotTheWorkingTree(t *testing.T) {
	dir, commit := newRepo(t, map[string]string{"README.md": "x\n"})
	// go.mod exists on disk only: detection must not see it.
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	repo := openRepo(t, dir)
	fakeTools(t, map[string]string{"go": "exit 0"})
	got, notes, err := Detect(repo, commit)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 || len(notes) != 0 {
		t.Errorf("detected %v, notes %v from the working tree", got, notes)
	}
}

func TestCollectorsConfigReplacesDetection(t *testing.T) {
	dir, commit := newRepo(t, map[string]string{"go.mod": "module m\n"})
	repo := openRepo(t, dir)
	fakeTools(t, map[string]string{"go": "exit 0"})
	own := []config.Collector{{Name: "unit", Argv: []string{"make", "test"}, Reports: []config.ReportSpec{{Format: "junit", Path: "out/*.xml"}}}}
	got, notes, err := Collectors(repo, commit, &config.Config{Collectors: own})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(own, got); diff != "" || notes != nil {
		t.Errorf("collectors (-want +got):\n%s\nnotes %v", diff, notes)
	}
	got, _, err = Collectors(repo, commit, config.Default())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Name != "go test" {
		t.Errorf("without configured collectors: %v, want go test detected", got)
	}
}
