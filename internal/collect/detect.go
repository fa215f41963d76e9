package collect

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/runner"
)

// Collectors returns the collectors that measure a commit: the ones
// .ralph-gate.yml defines, when it defines any (they replace detection
// entirely), otherwise the detected ones (Detect).
func Collectors(repo *gitrepo.Repo, commit plumbing.Hash, cfg *config.Config) ([]config.Collector, []string, error) {
	if cfg != nil && len(cfg.Collectors) > 0 {
		return cfg.Collectors, nil, nil
	}
	var tc config.Toolchain
	if cfg != nil {
		tc = cfg.Toolchain
	}
	return detect(repo, commit, tc)
}

// LookedFor says what detection looks for, for the message when it finds
// nothing.
const LookedFor = "looked for go.mod or go.work (go test), package.json with vitest, or jest and jest-junit (the test runner), " +
	"pytest.ini, conftest.py, [tool.pytest] in pyproject.toml, [tool:pytest] in setup.cfg, [pytest] in tox.ini or test files in tests/ or test/ (pytest), " +
	"Cargo.toml (cargo test), pom.xml (mvn test), build.gradle or settings.gradle (gradle test)"

// Detect finds the toolchains of a commit from its tree (read through
// gitrepo, never from the working tree) and returns the collectors that
// measure it, in the order they should run, and notes for the user: a
// collector whose tool is not installed is left out with the one-line note
// "collector X: tool Y is not installed" (the caller decides whether the
// missing data is fatal).
//
//   - go.mod or go.work at the root: go test -json with a cover profile.
//   - package.json with vitest, or jest with jest-junit: the test runner,
//     through the lockfile's package manager, with JUnit and LCOV output;
//     preceded by the lockfile's install command (npm ci, pnpm install
//     --frozen-lockfile, yarn install --frozen-lockfile) unless node_modules
//     is committed. tsconfig.json: the project's ./node_modules/.bin/tsc.
//     eslint, when configured and a dependency.
//   - pytest (pytest.ini, [tool.pytest...] in pyproject.toml, [tool:pytest] in
//     setup.cfg, [pytest] in tox.ini, conftest.py, or test files in tests/ or
//     test/): python3 -m pytest with JUnit output, and Cobertura coverage
//     through pytest-cov, or coverage.py, when installed.
//   - Cargo.toml at the root: cargo test --no-fail-fast --workspace, its
//     stdout and stderr read together (the cargotest format).
//   - pom.xml at the root: mvn test in batch mode, with testFailureIgnore
//     and --fail-at-end so that every module's tests run past a failing
//     one; the results are read from each module's Surefire reports
//     (target/surefire-reports/TEST-*.xml) and mvn's log (the maven
//     format: a module that does not build, a forked JVM that died).
//   - build.gradle(.kts) or settings.gradle(.kts) at the root and no pom.xml:
//     gradle test --continue in plain console mode, through the project's
//     ./gradlew when it has one (the Gradle it pins), else the gradle on
//     PATH; the results are read from each project's JUnit reports
//     (build/test-results/**/TEST-*.xml) and the log (the gradle format).
//   - golangci-lint and ruff, when configured and installed.
//
// Detected commands write their reports under {out} (OutDir).
func Detect(repo *gitrepo.Repo, commit plumbing.Hash) ([]config.Collector, []string, error) {
	return detect(repo, commit, config.Toolchain{})
}

func detect(repo *gitrepo.Repo, commit plumbing.Hash, tc config.Toolchain) ([]config.Collector, []string, error) {
	root, err := repo.ListDir(commit, "")
	if err != nil {
		return nil, nil, fmt.Errorf("detect toolchains: %w", err)
	}
	python := "python3"
	if tc.Python != "" {
		python = tc.Python
		if !filepath.IsAbs(python) && strings.ContainsRune(python, '/') {
			python = filepath.Join(repo.Root(), python)
		}
	}
	d := &detector{repo: repo, commit: commit, root: map[string]filemode.FileMode{}, pythonBin: python}
	for _, e := range root {
		d.root[e.Path] = e.Mode
	}
	steps := []func() error{d.golang, d.node, d.python, d.rust, d.maven, d.gradle, d.golangciLint, d.ruff}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, nil, fmt.Errorf("detect toolchains at %s: %w", short(commit), err)
		}
	}
	return d.specs, d.notes, nil
}

type detector struct {
	repo   *gitrepo.Repo
	commit plumbing.Hash
	root   map[string]filemode.FileMode
	specs  []config.Collector
	notes  []string
	// pythonBin is the interpreter of the pytest collectors.
	pythonBin string
}

func (d *detector) has(name string) bool {
	m, ok := d.root[name]
	return ok && m != filemode.Dir && m != filemode.Submodule
}

func (d *detector) hasDir(name string) bool { return d.root[name] == filemode.Dir }

// read reads a root file; absent (or too large) is nil with no error.
func (d *detector) read(name string) ([]byte, error) {
	if !d.has(name) {
		return nil, nil
	}
	b, err := d.repo.ReadFile(d.commit, name)
	if errors.Is(err, gitrepo.ErrNotFound) || errors.Is(err, gitrepo.ErrTooLarge) {
		return nil, nil
	}
	return b, err
}

// installed reports whether every tool is on PATH, noting the first one
// that is not.
func (d *detector) installed(collector string, tools ...string) bool {
	for _, t := range tools {
		if _, err := lookPath(t, probeEnv()); err != nil {
			d.notes = append(d.notes, fmt.Sprintf("collector %s: tool %s is not installed", collector, t))
			return false
		}
	}
	return true
}

func (d *detector) note(format string, args ...any) {
	d.notes = append(d.notes, fmt.Sprintf(format, args...))
}

func (d *detector) golang() error {
	if !d.has("go.mod") && !d.has("go.work") {
		return nil
	}
	const name = "go test"
	if !d.installed(name, "go") {
		return nil
	}
	// No -trimpath, though it would let Go's build and test caches serve a
	// new worktree of an already-built tree: it changes what tests see
	// (file paths in stack traces and runtime.Caller, which gin's recovery
	// tests compare and testdata lookups join), so such tests fail at both
	// ends and whatever they check goes unmeasured.
	d.specs = append(d.specs, config.Collector{
		Name:   name,
		Argv:   []string{"go", "test", "-json", "-coverprofile=" + OutDir + "/go-cover.out", "./..."},
		Tests:  true,
		Runner: string(runner.Go),
		Reports: []config.ReportSpec{
			{Format: "gotest", Stdout: true},
			{Format: "coverprofile", Path: OutDir + "/go-cover.out"},
		},
	})
	return nil
}

func (d *detector) rust() error {
	if !d.has("Cargo.toml") {
		return nil
	}
	const name = "cargo test"
	if !d.installed(name, "cargo") {
		return nil
	}
	// libtest prints the results on stdout and cargo names each test
	// binary on stderr: the parser needs both, in order. --no-fail-fast
	// runs every binary past a failing one.
	d.specs = append(d.specs, config.Collector{
		Name:    name,
		Argv:    []string{"cargo test --no-fail-fast --workspace 2>&1"},
		Shell:   true,
		Env:     map[string]string{"CARGO_TERM_COLOR": "never", "RUST_BACKTRACE": "0"},
		Tests:   true,
		Runner:  string(runner.Cargo),
		Reports: []config.ReportSpec{{Format: "cargotest", Stdout: true}},
	})
	return nil
}

// SurefireReports is where the maven test collector reads its test results:
// each module's Surefire reports.
const SurefireReports = "**/target/surefire-reports/TEST-*.xml"

func (d *detector) maven() error {
	if !d.has("pom.xml") {
		return nil
	}
	const name = "maven test"
	if !d.installed(name, "mvn") {
		return nil
	}
	// Batch mode, no colours and no download progress; failing tests do
	// not stop the build (testFailureIgnore) and a failing module does not
	// stop the others (--fail-at-end), so that every test that can run
	// does. The log is read with the reports: a module that does not
	// build, or whose forked JVM died in a test (System.exit, which with
	// testFailureIgnore leaves the build successful), has none of its own.
	d.specs = append(d.specs, config.Collector{
		Name:   name,
		Argv:   []string{"mvn -B -ntp -Dstyle.color=never -Dmaven.test.failure.ignore=true --fail-at-end test 2>&1"},
		Shell:  true,
		Tests:  true,
		Runner: string(runner.Maven),
		Reports: []config.ReportSpec{
			{Format: "maven", Stdout: true},
			{Format: "junit", Path: SurefireReports},
		},
	})
	return nil
}

// GradleInitScript is the init script the gradle test collector runs with:
// every Test task logs each test's start and result (the gradle format reads
// them), set once the projects are evaluated so that it wins over theirs;
// and with GradleTestsEnv set (the tamper check), runs only the test
// classes it names, a task with none of them passing.
const GradleInitScript = `gradle.projectsEvaluated { rootProject.allprojects { tasks.withType(Test) { testLogging { events "started", "passed", "skipped", "failed" }; def only = System.getenv("RALPH_GATE_GRADLE_TESTS"); if (only) { filter { only.split(",").each { c -> includeTestsMatching("*" + c) }; failOnNoMatchingTests = false } } } } }`

// GradleTestsEnv names, comma-separated, the only test classes (simple
// names) the gradle test collector's init script lets run.
const GradleTestsEnv = "RALPH_GATE_GRADLE_TESTS"

// GradleReports is where the gradle test collector reads its test results:
// each project's JUnit reports, of every test task.
const GradleReports = "**/build/test-results/**/TEST-*.xml"

func (d *detector) gradle() error {
	if d.has("pom.xml") {
		return nil // measured by Maven
	}
	build := false
	for _, f := range []string{"build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts"} {
		build = build || d.has(f)
	}
	if !build {
		return nil
	}
	const name = "gradle test"
	// The wrapper runs the Gradle the project pins (and downloads it on
	// first use); without one, the installed gradle. --continue runs every
	// project's tests past a failing one; no daemon outlives the run.
	gradle := "gradle"
	if d.has("gradlew") {
		gradle = "sh ./gradlew"
		if !d.installed(name, "java") {
			return nil
		}
	} else if !d.installed(name, "gradle") {
		return nil
	}
	// The init script (written to {out}, outside the checkout) logs each
	// test's start and result after the project's own configuration: a
	// test that started and never finished shows the worker that
	// System.exit(0) ended, which Gradle reports as a success.
	d.specs = append(d.specs, config.Collector{
		Name: name,
		Argv: []string{"printf '%s\\n' '" + GradleInitScript + "' > '" + OutDir + "/ralph-gate-init.gradle' && " +
			gradle + " --init-script '" + OutDir + "/ralph-gate-init.gradle' test --continue --console=plain --no-daemon 2>&1"},
		Shell:  true,
		Tests:  true,
		Runner: string(runner.Gradle),
		Reports: []config.ReportSpec{
			{Format: "gradle", Stdout: true},
			{Format: "junit", Path: GradleReports},
		},
	})
	return nil
}

func (d *detector) golangciLint() error {
	configured := false
	for _, f := range []string{".golangci.yml", ".golangci.yaml", ".golangci.toml", ".golangci.json"} {
		configured = configured || d.has(f)
	}
	const name = "golangci-lint"
	if !configured || !d.installed(name, "golangci-lint") {
		return nil
	}
	// v2 replaced --out-format with --output.<format>.path.
	version := probeVersion(context.Background(), []string{"golangci-lint", "--version"})
	if strings.Contains(version, "version 1.") {
		d.specs = append(d.specs, config.Collector{
			Name:    name,
			Argv:    []string{"golangci-lint", "run", "--out-format=json", "./..."},
			Reports: []config.ReportSpec{{Format: "golangci", Stdout: true}},
		})
		return nil
	}
	d.specs = append(d.specs, config.Collector{
		Name:    name,
		Argv:    []string{"golangci-lint", "run", "--output.json.path=" + OutDir + "/golangci.json", "./..."},
		Reports: []config.ReportSpec{{Format: "golangci", Path: OutDir + "/golangci.json"}},
	})
	return nil
}

func (d *detector) ruff() error {
	configured := d.has("ruff.toml") || d.has(".ruff.toml")
	if !configured {
		b, err := d.read("pyproject.toml")
		if err != nil {
			return err
		}
		configured = hasSection(b, "[tool.ruff")
	}
	const name = "ruff"
	if !configured || !d.installed(name, "ruff") {
		return nil
	}
	d.specs = append(d.specs, config.Collector{
		Name:    name,
		Argv:    []string{"ruff", "check", "--output-format=sarif", "--output-file=" + OutDir + "/ruff.sarif", "--exit-zero", "."},
		Reports: []config.ReportSpec{{Format: "sarif", Path: OutDir + "/ruff.sarif"}},
	})
	return nil
}

// hasSection reports whether an INI or TOML file has a line that starts a
// section with the prefix ("[tool.pytest" matches [tool.pytest.ini_options]).
func hasSection(b []byte, prefix string) bool {
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.HasPrefix(strings.TrimSpace(sc.Text()), prefix) {
			return true
		}
	}
	return false
}

// probe runs a short command outside any checkout and reports whether it
// succeeded (python3 -c "import pytest").
func probe(argv ...string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), versionTimeout)
	defer cancel()
	env := probeEnv()
	bin, err := lookPath(argv[0], env)
	if err != nil {
		return false
	}
	cmd := exec.CommandContext(ctx, bin, argv[1:]...)
	cmd.Dir = os.TempDir()
	cmd.Env = env
	return cmd.Run() == nil
}

func (d *detector) python() error {
	configured := d.has("pytest.ini") || d.has("conftest.py")
	for _, f := range []struct{ file, section string }{
		{"pyproject.toml", "[tool.pytest"}, {"setup.cfg", "[tool:pytest]"}, {"tox.ini", "[pytest]"},
	} {
		if configured {
			break
		}
		b, err := d.read(f.file)
		if err != nil {
			return err
		}
		configured = hasSection(b, f.section)
	}
	for _, dir := range []string{"tests", "test"} {
		if configured || !d.hasDir(dir) {
			continue
		}
		entries, err := d.repo.ListDir(d.commit, dir)
		if err != nil {
			return err
		}
		for _, e := range entries {
			base := path.Base(e.Path)
			if strings.HasSuffix(base, ".py") && (strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py")) {
				configured = true
			}
		}
	}
	const name = "pytest"
	if !configured || !d.installed(name, d.pythonBin) {
		return nil
	}
	if !probe(d.pythonBin, "-c", "import pytest") {
		d.note("collector %s: tool pytest is not installed (python3 -m pytest)", name)
		return nil
	}
	junit := OutDir + "/pytest-junit.xml"
	cobertura := OutDir + "/pytest-coverage.xml"
	switch {
	case probe(d.pythonBin, "-c", "import pytest_cov"):
		d.specs = append(d.specs, config.Collector{
			Name:   name,
			Argv:   []string{d.pythonBin, "-m", "pytest", "--junitxml=" + junit, "--cov", "--cov-report=xml:" + cobertura},
			Tests:  true,
			Runner: string(runner.Pytest),
			Reports: []config.ReportSpec{
				{Format: "junit", Path: junit},
				{Format: "cobertura", Path: cobertura},
			},
		})
	case probe(d.pythonBin, "-c", "import coverage"):
		env := map[string]string{"COVERAGE_FILE": OutDir + "/pytest.coverage"}
		d.specs = append(d.specs,
			config.Collector{
				Name:    name,
				Argv:    []string{d.pythonBin, "-m", "coverage", "run", "-m", "pytest", "--junitxml=" + junit},
				Env:     env,
				Tests:   true,
				Runner:  string(runner.Pytest),
				Reports: []config.ReportSpec{{Format: "junit", Path: junit}},
			},
			config.Collector{
				Name:    "coverage xml",
				Argv:    []string{d.pythonBin, "-m", "coverage", "xml", "-o", cobertura},
				Env:     env,
				Reports: []config.ReportSpec{{Format: "cobertura", Path: cobertura}},
			})
	default:
		d.note("collector %s: coverage not measured (neither pytest-cov nor coverage.py is installed)", name)
		d.specs = append(d.specs, config.Collector{
			Name:    name,
			Argv:    []string{d.pythonBin, "-m", "pytest", "--junitxml=" + junit},
			Tests:   true,
			Runner:  string(runner.Pytest),
			Reports: []config.ReportSpec{{Format: "junit", Path: junit}},
		})
	}
	return nil
}

// versionTimeout bounds one probe of the environment.
const versionTimeout = 20 * time.Second
