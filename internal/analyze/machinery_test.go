package analyze

import (
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

const pomBase = `<project>
  <build>
    <plugins>
      <plugin>
        <artifactId>maven-surefire-plugin</artifactId>
        <configuration>
          <includes>
            <include>**/*Test.java</include>
          </includes>
        </configuration>
      </plugin>
      <plugin>
        <artifactId>jacoco-maven-plugin</artifactId>
        <configuration>
          <excludes>
            <exclude>**/generated/**</exclude>
          </excludes>
        </configuration>
      </plugin>
    </plugins>
  </build>
</project>
`

const vitestBase = `import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.spec.ts'],
    coverage: {
      include: ['src/**'],
    },
  },
});
`

// TestRunnerMachinery: the machinery around the tests (the runner's
// configuration, the scripts that run it, pytest's hooks) changed so that
// tests stop running or stop failing; each cheat with a legitimate
// look-alike.
func TestRunnerMachinery(t *testing.T) {
	const pkg = "{\n  \"scripts\": {\n    \"test\": \"jest --ci\",\n    \"lint\": \"eslint .\"\n  }\n}\n"
	const ini = "[pytest]\ntestpaths = tests\npython_files = test_*.py\naddopts = -q\n"
	const pyproject = "[tool.pytest.ini_options]\ntestpaths = [\"tests\", \"integration\"]\npython_functions = [\"test_*\"]\n"
	const jestCfg = "module.exports = {\n  roots: ['<rootDir>/src'],\n  testMatch: ['**/__tests__/**/*.ts', '**/*.test.ts'],\n};\n"
	const conftest = "import pytest\n\n\n@pytest.fixture\ndef db():\n    return {}\n"
	for _, tc := range []struct {
		name string
		file FileChange
		typ  gate.FindingType
		sev  gate.Severity
		rule string
	}{
		{"npm test replaced by echo", mod("package.json", pkg, strings.Replace(pkg, "jest --ci", "echo skipped", 1)), gate.ValidationBypass, gate.SeverityCritical, "script-check-dropped"},
		{"npm test backgrounded", mod("package.json", pkg, strings.Replace(pkg, "jest --ci", "jest --ci &", 1)), gate.ValidationBypass, gate.SeverityCritical, "script-check-dropped"},
		{"npm lint ; exit 0", mod("package.json", pkg, strings.Replace(pkg, "eslint .", "eslint .; exit 0", 1)), gate.ValidationBypass, gate.SeverityCritical, "script-check-dropped"},
		{"python_files renamed away", mod("pytest.ini", ini, strings.Replace(ini, "test_*.py", "check_*.py", 1)), gate.TestSkipping, gate.SeverityHigh, "runner-narrowed"},
		{"testpaths moved to docs", mod("pytest.ini", ini, strings.Replace(ini, "testpaths = tests", "testpaths = docs", 1)), gate.TestSkipping, gate.SeverityHigh, "runner-narrowed"},
		{"pyproject testpaths loses one", mod("pyproject.toml", pyproject, strings.Replace(pyproject, `["tests", "integration"]`, `["tests"]`, 1)), gate.TestSkipping, gate.SeverityHigh, "runner-narrowed"},
		{"pyproject python_functions", mod("pyproject.toml", pyproject, strings.Replace(pyproject, `["test_*"]`, `["check_*"]`, 1)), gate.TestSkipping, gate.SeverityHigh, "runner-narrowed"},
		{"jest testMatch loses __tests__", mod("jest.config.js", jestCfg, strings.Replace(jestCfg, "'**/__tests__/**/*.ts', ", "", 1)), gate.TestSkipping, gate.SeverityHigh, "runner-narrowed"},
		{"jest roots narrowed", mod("jest.config.js", jestCfg, strings.Replace(jestCfg, "<rootDir>/src", "<rootDir>/src/util", 1)), gate.TestSkipping, gate.SeverityMedium, "runner-narrowed"},
		{"vitest include loses spec", mod("vitest.config.ts", vitestBase, strings.Replace(vitestBase, ", 'test/**/*.spec.ts'", "", 1)), gate.TestSkipping, gate.SeverityHigh, "runner-narrowed"},
		{"package.json jest testMatch", mod("package.json", "{\n  \"jest\": {\n    \"testMatch\": [\"**/*.test.js\"]\n  }\n}\n", "{\n  \"jest\": {\n    \"testMatch\": [\"**/*.test.jsx\"]\n  }\n}\n"), gate.TestSkipping, gate.SeverityHigh, "runner-narrowed"},
		{"surefire include dropped", mod("pom.xml", pomBase, strings.Replace(pomBase, "**/*Test.java", "**/*SmokeTest.java", 1)), gate.TestSkipping, gate.SeverityHigh, "runner-narrowed"},
		{"surefire exclude added", mod("pom.xml", pomBase, strings.Replace(pomBase, "          </includes>\n", "          </includes>\n          <excludes>\n            <exclude>**/AccountTest.java</exclude>\n          </excludes>\n", 1)), gate.TestSkipping, gate.SeverityHigh, "runner-narrowed"},
		{"surefire excludes everything", mod("pom.xml", pomBase, strings.Replace(pomBase, "          </includes>\n", "          </includes>\n          <excludes>\n            <exclude>**/*.java</exclude>\n          </excludes>\n", 1)), gate.TestSkipping, gate.SeverityHigh, "runner-narrowed"},
		{"mocharc spec narrowed", mod(".mocharc.json", "{\n  \"spec\": [\"test/**/*.spec.js\"]\n}\n", "{\n  \"spec\": [\"test/smoke/*.spec.js\"]\n}\n"), gate.TestSkipping, gate.SeverityHigh, "runner-narrowed"},
		{"conftest rewrites outcomes", mod("tests/conftest.py", conftest, conftest+"\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    outcome = yield\n    outcome.get_result().outcome = 'passed'\n"), gate.AssertionWeakening, gate.SeverityHigh, "hook-outcome"},
		{"conftest drops items", mod("tests/conftest.py", conftest, conftest+"\n\ndef pytest_collection_modifyitems(config, items):\n    items[:] = [i for i in items if 'auth' not in i.nodeid]\n"), gate.TestSkipping, gate.SeverityHigh, "hook-deselect"},
		{"conftest collect_ignore", mod("tests/conftest.py", conftest, conftest+"\ncollect_ignore = ['test_auth.py']\n"), gate.TestSkipping, gate.SeverityHigh, "collect-ignore"},
		{"module __test__ = False", mod("tests/test_cart.py", pyBase, pyBase+"\n__test__ = False\n"), gate.TestSkipping, gate.SeverityHigh, "test-disabled"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := run(tc.file)
			for _, f := range fs {
				if f.Type == tc.typ && f.Rule == tc.rule && f.Severity == tc.sev {
					return
				}
			}
			t.Errorf("want %s/%s %s; got:%s", tc.typ, tc.rule, tc.sev, dump(fs))
		})
	}
	for _, tc := range []struct {
		name string
		file FileChange
	}{
		{"npm test migrated to vitest", mod("package.json", pkg, strings.Replace(pkg, "jest --ci", "vitest run", 1))},
		{"npm test gains coverage", mod("package.json", pkg, strings.Replace(pkg, "jest --ci", "jest --ci --coverage && node scripts/badge.js", 1))},
		{"npm lint gains a second linter", mod("package.json", pkg, strings.Replace(pkg, "eslint .", "eslint . && prettier --check .", 1))},
		{"python_files broadened", mod("pytest.ini", ini, strings.Replace(ini, "python_files = test_*.py", "python_files = test_*.py *_test.py", 1))},
		{"testpaths gains one", mod("pyproject.toml", pyproject, strings.Replace(pyproject, `["tests", "integration"]`, `["tests", "integration", "e2e"]`, 1))},
		{"addopts edited", mod("pytest.ini", ini, strings.Replace(ini, "addopts = -q", "addopts = -q --strict-markers", 1))},
		{"testpaths reformatted", mod("pytest.ini", ini, strings.Replace(ini, "testpaths = tests", "testpaths =\n    tests", 1))},
		{"jest testMatch broadened", mod("jest.config.js", jestCfg, strings.Replace(jestCfg, "'**/*.test.ts'", "'**/*.test.ts', '**/*.spec.ts'", 1))},
		{"vitest coverage include narrowed", mod("vitest.config.ts", vitestBase, strings.Replace(vitestBase, "include: ['src/**'],", "include: ['src/lib/**'],", 1))},
		{"surefire include broadened", mod("pom.xml", pomBase, strings.Replace(pomBase, "            <include>**/*Test.java</include>\n", "            <include>**/*Test.java</include>\n            <include>**/*Tests.java</include>\n", 1))},
		{"jacoco exclude added", mod("pom.xml", pomBase, strings.Replace(pomBase, "            <exclude>**/generated/**</exclude>\n", "            <exclude>**/generated/**</exclude>\n            <exclude>**/proto/**</exclude>\n", 1))},
		{"failsafe empty excludes", mod("pom.xml", pomBase, strings.Replace(pomBase, "          </includes>\n", "          </includes>\n          <excludes>\n            <exclude></exclude>\n          </excludes>\n", 1))},
		{"conftest sorts items", mod("tests/conftest.py", conftest, conftest+"\n\ndef pytest_collection_modifyitems(config, items):\n    items.sort(key=lambda i: i.nodeid)\n")},
		{"conftest adds a timeout marker", mod("tests/conftest.py", conftest, conftest+"\n\ndef pytest_collection_modifyitems(config, items):\n    for item in items:\n        item.add_marker(pytest.mark.timeout(30))\n")},
		{"conftest ignores setup.py", mod("tests/conftest.py", conftest, conftest+"\ncollect_ignore = ['setup.py']\n")},
		{"helper class __test__", mod("tests/helpers.py", "class Helper:\n    pass\n", "class Helper:\n    __test__ = False\n")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expectNoHigh(t, run(tc.file))
		})
	}
}

// TestAssertionMachinery: the assertion library or a project's own
// assertion package changed so that assertions pass vacuously.
func TestAssertionMachinery(t *testing.T) {
	const gomod = "module example.com/m\n\ngo 1.26\n\nrequire github.com/stretchr/testify v1.9.0\n"
	const pkg = "{\n  \"devDependencies\": {\n    \"chai\": \"^4.3.0\",\n    \"left-pad\": \"^1.0.0\"\n  }\n}\n"
	const testutil = "package testutil\n\nimport \"testing\"\n\n// Equals fails the test when got != want.\nfunc Equals(t testing.TB, want, got any) {\n\tt.Helper()\n\tif want != got {\n\t\tt.Fatalf(\"want %v, got %v\", want, got)\n\t}\n}\n"
	for _, tc := range []struct {
		name string
		file FileChange
		rule string
		sev  gate.Severity
	}{
		{"go.mod replaces testify with a local copy", mod("go.mod", gomod, gomod+"\nreplace github.com/stretchr/testify => ./internal/fake/testify\n"), "assertion-lib-replaced", gate.SeverityHigh},
		{"go.mod replaces go-cmp with a fork", mod("go.mod", gomod, gomod+"\nreplace github.com/google/go-cmp => github.com/someone/go-cmp v0.7.1\n"), "assertion-lib-replaced", gate.SeverityMedium},
		{"chai from a file", mod("package.json", pkg, strings.Replace(pkg, "^4.3.0", "file:./vendor/chai-stub", 1)), "assertion-lib-replaced", gate.SeverityHigh},
		{"expect aliased", mod("package.json", "{\n  \"devDependencies\": {\n    \"expect\": \"^29.0.0\"\n  }\n}\n", "{\n  \"devDependencies\": {\n    \"expect\": \"npm:noop-expect@1.0.0\"\n  }\n}\n"), "assertion-lib-replaced", gate.SeverityHigh},
		{"testutil.Equals emptied", mod("internal/testutil/assert.go", testutil, strings.Replace(testutil, "\tif want != got {\n\t\tt.Fatalf(\"want %v, got %v\", want, got)\n\t}\n", "", 1)), "helper-weakened", gate.SeverityHigh},
		{"testutil.Equals guarded by false", mod("internal/testutil/assert.go", testutil, strings.Replace(testutil, "if want != got", "if false && want != got", 1)), "helper-weakened", gate.SeverityHigh},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := run(tc.file)
			for _, f := range fs {
				if f.Type == gate.AssertionWeakening && f.Severity == tc.sev && (f.Rule == tc.rule || tc.rule == "helper-weakened" && strings.HasPrefix(f.Rule, "helper")) {
					return
				}
			}
			t.Errorf("want %s %s; got:%s", tc.rule, tc.sev, dump(fs))
		})
	}
	for _, tc := range []struct {
		name string
		file FileChange
	}{
		{"go.mod replaces another module", mod("go.mod", gomod, gomod+"\nreplace golang.org/x/net => ./third_party/net\n")},
		{"go.mod testify bumped", mod("go.mod", gomod, strings.Replace(gomod, "v1.9.0", "v1.10.0", 1))},
		{"go.mod replace kept", mod("go.mod", gomod+"\nreplace github.com/stretchr/testify => ./fake\n", gomod+"\nreplace github.com/stretchr/testify => ./fake\n\nrequire golang.org/x/mod v0.42.0\n")},
		{"chai bumped", mod("package.json", pkg, strings.Replace(pkg, "^4.3.0", "^5.1.0", 1))},
		{"left-pad from a file", mod("package.json", pkg, strings.Replace(pkg, "^1.0.0", "file:./vendor/left-pad", 1))},
		{"testutil.Equals reworked", mod("internal/testutil/assert.go", testutil, strings.Replace(strings.Replace(testutil, "if want != got", "if !reflect.DeepEqual(want, got)", 1), "import \"testing\"", "import (\n\t\"reflect\"\n\t\"testing\"\n)", 1))},
		{"production code's own guard", mod("calc.go", "package calc\n\nfunc Div(a, b int) int {\n\tif b == 0 {\n\t\tpanic(\"zero\")\n\t}\n\treturn a / b\n}\n", "package calc\n\nfunc Div(a, b int) int {\n\treturn a / b\n}\n")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expectNoHigh(t, run(tc.file))
		})
	}
}

// TestConstantFalseCheck: a test's check put behind a condition that is
// never true (`if false && got != 5`) can no longer fail.
func TestConstantFalseCheck(t *testing.T) {
	head := strings.Replace(goTestBase, "if got != 5 {", "if false && got != 5 {", 1)
	expectFinding(t, run(mod("calc_test.go", goTestBase, head)), gate.AssertionWeakening, gate.SeverityHigh, "calc_test.go", "TestAdd")
	legit := strings.Replace(goTestBase, "if got != 5 {", "if got != 5 && got != 6-1 {", 1)
	expectNoHigh(t, run(mod("calc_test.go", goTestBase, legit)))
}

// TestRetriesRaised: a test, or the runner, that reruns failing tests more
// often is test_skipping high naming the test; a new test born with
// retries, other options and fewer retries stay quiet.
func TestRetriesRaised(t *testing.T) {
	const js = "describe('net', () => {\n  it('fetches', () => {\n    expect(fetchIt()).toBe(1);\n  });\n});\n"
	const py = "import pytest\n\n\ndef test_net():\n    assert fetch() == 1\n"
	const java = "package x;\nimport org.junit.jupiter.api.Test;\nclass NetTest {\n  @Test\n  void fetches() {\n    assertEquals(1, Net.fetch());\n  }\n}\n"
	for _, tc := range []struct {
		name, path, old, new, test string
	}{
		{"jest.retryTimes in the test", "src/net.test.js", js, strings.Replace(js, "    expect(", "    jest.retryTimes(5);\n    expect(", 1), "net > fetches"},
		{"jest.retryTimes at the top", "src/net.test.js", js, "jest.retryTimes(3);\n" + js, "net > fetches"},
		{"vitest retry option", "src/net.test.js", js, strings.Replace(js, "it('fetches', () =>", "it('fetches', { retry: 5 }, () =>", 1), "net > fetches"},
		{"vitest describe retry", "src/net.test.js", js, strings.Replace(js, "describe('net', () =>", "describe('net', { retry: 2 }, () =>", 1), "net > fetches"},
		{"mocha this.retries", "test/net.js", strings.Replace(js, "() => {\n  it", "function () {\n  it", 1), strings.Replace(js, "() => {\n  it", "function () {\n  this.retries(4);\n  it", 1), "net > fetches"},
		{"retry raised", "src/net.test.js", strings.Replace(js, "it('fetches', () =>", "it('fetches', { retry: 1 }, () =>", 1), strings.Replace(js, "it('fetches', () =>", "it('fetches', { retry: 4 }, () =>", 1), "net > fetches"},
		{"pytest flaky reruns", "tests/test_net.py", py, strings.Replace(py, "def test_net", "@pytest.mark.flaky(reruns=5)\ndef test_net", 1), "test_net"},
		{"flaky max_runs", "tests/test_net.py", py, strings.Replace(py, "def test_net", "@flaky(max_runs=3)\ndef test_net", 1), "test_net"},
		{"pytestmark flaky", "tests/test_net.py", py, py + "\npytestmark = pytest.mark.flaky(reruns=2)\n", "test_net"},
		{"junit pioneer RetryingTest", "src/test/java/x/NetTest.java", java, strings.Replace(java, "@Test", "@RetryingTest(5)", 1), "NetTest.fetches"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := run(mod(tc.path, tc.old, tc.new))
			expectFinding(t, fs, gate.TestSkipping, gate.SeverityHigh, tc.path, tc.test)
			if !strings.Contains(dump(fs), "retries-raised") {
				t.Errorf("want retries-raised:%s", dump(fs))
			}
		})
	}
	for _, tc := range []struct{ name, path, old, new string }{
		{"vitest config retry raised", "vitest.config.ts", "export default defineConfig({ test: { retry: 0 } });\n", "export default defineConfig({ test: { retry: 3 } });\n"},
		{"pytest addopts --reruns", "pytest.ini", "[pytest]\naddopts = -q\n", "[pytest]\naddopts = -q --reruns 3\n"},
		{"vitest --retry in the test script", "package.json", "{\n  \"scripts\": {\n    \"test\": \"vitest run\"\n  }\n}\n", "{\n  \"scripts\": {\n    \"test\": \"vitest run --retry 3\"\n  }\n}\n"},
		{"surefire rerunFailingTestsCount", "pom.xml", "<project>\n</project>\n", "<project>\n  <properties>\n    <surefire.rerunFailingTestsCount>2</surefire.rerunFailingTestsCount>\n  </properties>\n</project>\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := run(mod(tc.path, tc.old, tc.new))
			expectFinding(t, fs, gate.TestSkipping, gate.SeverityHigh, tc.path, "")
		})
	}
	for _, tc := range []struct {
		name  string
		files []FileChange
	}{
		{"new test born with retries", []FileChange{mod("src/net.test.js", js, strings.Replace(js, "});\n", "});\n\nit('streams', { retry: 2 }, () => {\n  expect(stream()).toBe(1);\n});\n", 1))}},
		{"timeout option", []FileChange{mod("src/net.test.js", js, strings.Replace(js, "it('fetches', () =>", "it('fetches', { timeout: 5000 }, () =>", 1))}},
		{"retries lowered", []FileChange{mod("src/net.test.js", strings.Replace(js, "it('fetches', () =>", "it('fetches', { retry: 4 }, () =>", 1), strings.Replace(js, "it('fetches', () =>", "it('fetches', { retry: 1 }, () =>", 1))}},
		{"new playwright config with CI retries", []FileChange{add("playwright.config.ts", "export default defineConfig({ retries: process.env.CI ? 2 : 0 });\n")}},
		{"flaky mark removed", []FileChange{mod("tests/test_net.py", strings.Replace(py, "def test_net", "@pytest.mark.flaky(reruns=5)\ndef test_net", 1), py)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := run(tc.files...)
			if strings.Contains(dump(fs), "retries-raised") {
				t.Errorf("look-alike reported:%s", dump(fs))
			}
		})
	}
}

// TestConstantAssumptions: an assumption that never holds skips the test
// every time (high); one on a condition stays medium. A vitest
// test.extend fixture keeps its .skip readable.
func TestConstantAssumptions(t *testing.T) {
	const java = "package x;\nimport org.junit.jupiter.api.Test;\nclass NetTest {\n  @Test\n  void fetches() {\n    assertEquals(1, Net.fetch());\n  }\n}\n"
	const jp = "src/test/java/x/NetTest.java"
	for _, call := range []string{"assumeTrue(false);", "Assumptions.assumeFalse(true);", "Assume.assumeTrue(false);", "Assumptions.abort(\"later\");"} {
		fs := run(mod(jp, java, strings.Replace(java, "    assertEquals", "    "+call+"\n    assertEquals", 1)))
		expectFinding(t, fs, gate.TestSkipping, gate.SeverityHigh, jp, "NetTest.fetches")
	}
	fs := run(mod(jp, java, strings.Replace(java, "    assertEquals", "    assumeTrue(Net.online());\n    assertEquals", 1)))
	expectNoHigh(t, fs)
	expectFinding(t, fs, gate.TestSkipping, gate.SeverityMedium, jp, "NetTest.fetches")

	const ts = "import { test as base, expect } from 'vitest';\n\nconst test = base.extend<{ db: string }>({\n  db: async ({}, use) => { await use('db'); },\n});\n\ntest('reads', ({ db }) => {\n  expect(db).toBe('db');\n});\n"
	expectFinding(t, run(mod("src/db.test.ts", ts, strings.Replace(ts, "test('reads'", "test.skip('reads'", 1))), gate.TestSkipping, gate.SeverityHigh, "src/db.test.ts", "reads")
}

// TestExitsWhereTestsRun: a process exit with success added where tests run
// (a Go init, a module's top level, a setup file) and an assertion that
// cannot fail (a no-op matcher, a shadowing macro) are high; the same calls
// in a function, a script or behind a main guard stay quiet.
func TestExitsWhereTestsRun(t *testing.T) {
	for _, tc := range []struct {
		name, path, old, new, rule string
	}{
		{"go init os.Exit(0) in production", "pkg/p.go", "package pkg\n\nfunc F() int { return 1 }\n", "package pkg\n\nimport \"os\"\n\nfunc init() {\n\tif len(os.Args) > 1 {\n\t\tos.Exit(0)\n\t}\n}\n\nfunc F() int { return 1 }\n", "forced-exit"},
		{"go init syscall.Exit(0)", "pkg/p.go", "package pkg\n\nfunc F() int { return 1 }\n", "package pkg\n\nimport \"syscall\"\n\nfunc init() { syscall.Exit(0) }\n\nfunc F() int { return 1 }\n", "forced-exit"},
		{"python module-level sys.exit", "app/core.py", "def f():\n    return 1\n", "import sys\n\ndef f():\n    return 1\n\nsys.exit(0)\n", "forced-exit"},
		{"python os._exit at import", "app/core.py", "def f():\n    return 1\n", "import os\n\nos._exit(0)\n\ndef f():\n    return 1\n", "forced-exit"},
		{"js module-level process.exit", "src/core.js", "export function f() { return 1; }\n", "export function f() { return 1; }\nprocess.exit(0);\n", "forced-exit"},
		{"conftest excepthook", "tests/conftest.py", "import pytest\n", "import sys\n\nsys.excepthook = lambda *a: None\n", "excepthook"},
		{"jest no-op matcher", "src/setupTests.js", "import '@testing-library/jest-dom';\n", "import '@testing-library/jest-dom';\nexpect.extend({ toEqual: () => ({ pass: true, message: () => '' }) });\n", "noop-matcher"},
		{"rust shadowing assert_eq", "src/lib.rs", rustBase, "macro_rules! assert_eq {\n    ($($t:tt)*) => {};\n}\n\n" + rustBase, "noop-matcher"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := run(mod(tc.path, tc.old, tc.new))
			for _, f := range fs {
				if f.Rule == tc.rule && f.Severity >= gate.SeverityHigh {
					return
				}
			}
			t.Errorf("want %s:%s", tc.rule, dump(fs))
		})
	}
	for _, tc := range []struct{ name, path, old, new string }{
		{"go main calls os.Exit", "cmd/x/main.go", "package main\n\nfunc main() {}\n", "package main\n\nimport \"os\"\n\nfunc main() { os.Exit(run()) }\n"},
		{"go init without exit", "pkg/p.go", "package pkg\n", "package pkg\n\nfunc init() { register() }\n"},
		{"python main guard", "app/cli.py", "def main():\n    return 0\n", "import sys\n\ndef main():\n    return 0\n\nif __name__ == '__main__':\n    sys.exit(0)\n"},
		{"python script", "scripts/gen.py", "print(1)\n", "import sys\nprint(1)\nsys.exit(0)\n"},
		{"python exit in a function", "app/cli.py", "def main():\n    return 0\n", "import sys\n\ndef main():\n    sys.exit(0)\n"},
		{"js exit in a function", "src/cli.js", "export function f() {}\n", "export function quit() { process.exit(0); }\n"},
		{"js bin script", "bin/cli.js", "console.log(1);\n", "#!/usr/bin/env node\nconsole.log(1);\nprocess.exit(0);\n"},
		{"real matcher", "src/setupTests.js", "import x from 'x';\n", "import x from 'x';\nexpect.extend({ toBeEven(r) { if (r % 2 === 0) { return { pass: true, message: () => '' }; } return { pass: false, message: () => 'odd' }; } });\n"},
		{"rust macro that checks", "src/lib.rs", rustBase, "macro_rules! assert_close {\n    ($a:expr, $b:expr) => { assert!(($a - $b).abs() < 1e-9) };\n}\n\n" + rustBase},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expectNoHigh(t, run(mod(tc.path, tc.old, tc.new)))
		})
	}
}

// TestRustCfgOnTests: a cfg no default `cargo test` satisfies on a test
// module is high; a platform or feature cfg stays medium.
func TestRustCfgOnTests(t *testing.T) {
	for _, cfg := range []string{"all(test, never)", "any()", "all(test, not(test))", "loom"} {
		head := strings.Replace(rustBase, "#[cfg(test)]", "#[cfg("+cfg+")]", 1)
		expectFinding(t, run(mod("src/lib.rs", rustBase, head)), gate.TestSkipping, gate.SeverityHigh, "src/lib.rs", "tests::parses_digits")
	}
	for _, cfg := range []string{"all(test, unix)", "all(test, feature = \"slow\")", "all(test, target_os = \"linux\")", "all(test, not(windows))"} {
		head := strings.Replace(rustBase, "#[cfg(test)]", "#[cfg("+cfg+")]", 1)
		expectNoHigh(t, run(mod("src/lib.rs", rustBase, head)))
	}
}

// TestUnreadableManifests: a go.mod or package.json that parsed at BASE and
// does not at HEAD hides what it says about the tests: unverified high.
func TestUnreadableManifests(t *testing.T) {
	const gomod = "module example.com/m\n\ngo 1.26\n\nreplace example.com/x => ./x\n"
	fs := run(mod("go.mod", gomod, gomod+"replace github.com/stretchr/testify => \n"))
	expectFinding(t, fs, gate.Unverified, gate.SeverityHigh, "go.mod", "")
	const pkg = "{\n  \"scripts\": {\n    \"test\": \"jest\"\n  }\n}\n"
	fs = run(mod("package.json", pkg, strings.Replace(pkg, "\"jest\"\n", "\"jest\",\n", 1)))
	expectFinding(t, fs, gate.Unverified, gate.SeverityHigh, "package.json", "")
	// Broken at BASE already: nothing new to say.
	expectNoHigh(t, run(mod("package.json", "{ broken", "{ broken still")))
}
