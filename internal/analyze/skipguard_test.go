package analyze

import (
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// TestSkipsInAllButName: a new guard that skips a test where the gate runs
// (an environment variable, a constant-true condition) is test_skipping
// high, naming the test; a platform guard stays medium, and a guard that
// was there at BASE says nothing.
func TestSkipsInAllButName(t *testing.T) {
	envBase := strings.Replace(goTestBase, `import (
	"testing"`, `import (
	"os"
	"runtime"
	"testing"`, 1)
	envBase = strings.Replace(envBase, "func TestAdd(t *testing.T) {\n", "func TestAdd(t *testing.T) {\n\t_ = os.Args\n\t_ = runtime.GOOS\n", 1)
	for _, tc := range []struct{ name, guard string }{
		{"CI variable", "\tif os.Getenv(\"CI\") != \"\" {\n\t\tt.Skip(\"flaky on CI\")\n\t}\n"},
		{"LookupEnv", "\tif _, ok := os.LookupEnv(\"GITHUB_ACTIONS\"); ok {\n\t\treturn\n\t}\n"},
		{"if true return", "\tif true {\n\t\treturn\n\t}\n"},
		{"if 1 == 1 skip", "\tif 1 == 1 {\n\t\tt.Skip()\n\t}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			head := strings.Replace(envBase, "func TestAdd(t *testing.T) {\n", "func TestAdd(t *testing.T) {\n"+tc.guard, 1)
			expectFinding(t, run(mod("calc_test.go", envBase, head)), gate.TestSkipping, gate.SeverityHigh, "calc_test.go", "TestAdd")
		})
	}
	t.Run("platform guard stays medium", func(t *testing.T) {
		head := strings.Replace(envBase, "func TestAdd(t *testing.T) {\n", "func TestAdd(t *testing.T) {\n\tif runtime.GOOS == \"windows\" {\n\t\tt.Skip(\"no symlinks\")\n\t}\n", 1)
		expectNoHigh(t, run(mod("calc_test.go", envBase, head)))
	})
	t.Run("a guard already at BASE", func(t *testing.T) {
		guarded := strings.Replace(envBase, "func TestAdd(t *testing.T) {\n", "func TestAdd(t *testing.T) {\n\tif os.Getenv(\"CI\") != \"\" {\n\t\tt.Skip(\"flaky on CI\")\n\t}\n", 1)
		head := strings.Replace(guarded, "Add(2, 3) = %d, want 5", "Add(2, 3) gave %d, want 5", 1)
		for _, f := range run(mod("calc_test.go", guarded, head)) {
			if f.Type == gate.TestSkipping {
				t.Errorf("a guard that existed at BASE reported: %+v", f)
			}
		}
	})
}

// TestProductionCodeBranchesOnTest: production code that newly asks whether
// it runs under go test is validation_bypass high; the same check in a test
// helper, or one that was there at BASE, says nothing.
func TestProductionCodeBranchesOnTest(t *testing.T) {
	old := "package calc\n\nimport \"testing\"\n\nvar _ = testing.Verbose\n\n// Price is the price.\nfunc Price(n int) int {\n\treturn n * 3\n}\n"
	for _, tc := range []struct{ name, new string }{
		{"testing.Testing", strings.Replace(old, "\treturn n * 3\n", "\tif testing.Testing() {\n\t\treturn 42\n\t}\n\treturn n * 3\n", 1)},
		{"flag.Lookup test.v", strings.Replace(strings.Replace(old, "import \"testing\"", "import (\n\t\"flag\"\n\t\"testing\"\n)", 1), "\treturn n * 3\n", "\tif flag.Lookup(\"test.v\") != nil {\n\t\treturn 42\n\t}\n\treturn n * 3\n", 1)},
		{"os.Getenv TESTING", strings.Replace(strings.Replace(old, "import \"testing\"", "import (\n\t\"os\"\n\t\"testing\"\n)", 1), "\treturn n * 3\n", "\tif os.Getenv(\"TESTING\") != \"\" {\n\t\treturn 42\n\t}\n\treturn n * 3\n", 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expectFinding(t, run(mod("price.go", old, tc.new)), gate.ValidationBypass, gate.SeverityHigh, "price.go", "")
		})
	}
	t.Run("in a test helper", func(t *testing.T) {
		helper := "package calc\n\nimport \"testing\"\n\nfunc slow(t *testing.T) {\n\tif testing.Testing() && testing.Short() {\n\t\tt.Skip()\n\t}\n}\n"
		expectNoHigh(t, run(add("helpers_test.go", helper)))
	})
	t.Run("quieter under test", func(t *testing.T) {
		quiet := strings.Replace(old, "\treturn n * 3\n", "\tif testing.Testing() {\n\t\tverbose = false\n\t}\n\treturn n * 3\n", 1)
		expectNoHigh(t, run(mod("price.go", old, quiet)))
	})
	t.Run("already at BASE", func(t *testing.T) {
		with := strings.Replace(old, "\treturn n * 3\n", "\tif testing.Testing() {\n\t\treturn 42\n\t}\n\treturn n * 3\n", 1)
		expectNoHigh(t, run(mod("price.go", with, strings.Replace(with, "n * 3", "n*3 + 0", 1))))
	})
}

// TestPythonAndJSBranchOnTest: the same in Python ("pytest" in sys.modules,
// PYTEST_CURRENT_TEST, a test-mode variable such as TESTING) and JavaScript
// (NODE_ENV === 'test', JEST_WORKER_ID, VITEST, TESTING, typeof jest, Vite's
// test mode); a production-mode check, in-source vitest tests, a browser
// check, or the check in a conftest or a setup file, says nothing.
func TestPythonAndJSBranchOnTest(t *testing.T) {
	pyOld := "import os\nimport sys\n\n\ndef price(n):\n    return n * 3\n"
	jsOld := "export function price(n) {\n  return n * 3;\n}\n"
	for _, tc := range []struct{ name, path, old, new string }{
		{"pytest in sys.modules", "shop/price.py", pyOld, strings.Replace(pyOld, "    return n * 3\n", "    if \"pytest\" in sys.modules:\n        return 42\n    return n * 3\n", 1)},
		{"PYTEST_CURRENT_TEST", "shop/price.py", pyOld, strings.Replace(pyOld, "    return n * 3\n", "    if os.environ.get('PYTEST_CURRENT_TEST'):\n        return 42\n    return n * 3\n", 1)},
		{"NODE_ENV test", "src/price.js", jsOld, "export function price(n) {\n  if (process.env.NODE_ENV === 'test') return 42;\n  return n * 3;\n}\n"},
		{"test === NODE_ENV", "src/price.ts", jsOld, "export function price(n) {\n  if ('test' == process.env.NODE_ENV) { return 42; }\n  return n * 3;\n}\n"},
		{"JEST_WORKER_ID", "src/price.js", jsOld, "export function price(n) {\n  if (process.env.JEST_WORKER_ID) return 42;\n  return n * 3;\n}\n"},
		{"TESTING variable", "shop/price.py", pyOld, strings.Replace(pyOld, "    return n * 3\n", "    if os.getenv('TESTING'):\n        return 42\n    return n * 3\n", 1)},
		{"TEST_MODE in environ", "shop/price.py", pyOld, strings.Replace(pyOld, "    return n * 3\n", "    if 'TEST_MODE' in os.environ:\n        return 42\n    return n * 3\n", 1)},
		{"typeof jest", "src/price.js", jsOld, "export function price(n) {\n  if (typeof jest !== 'undefined') return 42;\n  return n * 3;\n}\n"},
		{"typeof vi", "src/price.ts", jsOld, "export function price(n: number) {\n  if (typeof vi === 'object') return 42;\n  return n * 3;\n}\n"},
		{"vite test mode", "src/price.ts", jsOld, "export function price(n: number) {\n  if (import.meta.env.MODE === 'test') { return 42; }\n  return n * 3;\n}\n"},
		{"process.env.TESTING", "src/price.js", jsOld, "export function price(n) {\n  if (process.env.TESTING) return 42;\n  return n * 3;\n}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expectFinding(t, run(mod(tc.path, tc.old, tc.new)), gate.ValidationBypass, gate.SeverityHigh, tc.path, "")
		})
	}
	for _, tc := range []struct{ name, path, old, new string }{
		{"production mode", "src/price.js", jsOld, "export function price(n) {\n  if (process.env.NODE_ENV === 'production') return n * 3;\n  return n * 3;\n}\n"},
		{"a quiet flag (express's examples/error-pages)", "src/app.js", jsOld, "var silent = process.env.NODE_ENV === 'test'\n" + jsOld},
		{"no deprecation warnings under test (express's lib/utils.js)", "lib/utils.js", jsOld, "exports.deprecate = function(fn, msg){\n  if (process.env.NODE_ENV === 'test') return fn;\n  return deprecate(fn, msg);\n};\n" + jsOld},
		{"logging off under test", "src/price.js", jsOld, "export function price(n) {\n  if (process.env.NODE_ENV !== 'test') console.log('price', n);\n  return n * 3;\n}\n"},
		{"jest setup file", "jest.setup.js", "", "if (process.env.JEST_WORKER_ID) { globalThis.x = 1; }\n"},
		{"conftest", "tests/conftest.py", "", "import os\n\nif os.environ.get('PYTEST_CURRENT_TEST'):\n    pass\n"},
		{"in-source vitest tests", "src/price.ts", jsOld, jsOld + "if (import.meta.vitest) {\n  const { it, expect } = import.meta.vitest;\n  it('prices', () => { expect(price(1)).toBe(3); });\n}\n"},
		{"a browser check", "src/price.js", jsOld, "export function price(n) {\n  if (typeof window !== 'undefined') return n * 3;\n  return n * 3;\n}\n"},
		{"production vite mode", "src/price.ts", jsOld, "export function price(n: number) {\n  if (import.meta.env.MODE === 'production') { return n * 3; }\n  return n * 3;\n}\n"},
		{"DEBUG variable", "shop/price.py", pyOld, strings.Replace(pyOld, "    return n * 3\n", "    if os.environ.get('DEBUG'):\n        return n * 3\n    return n * 3\n", 1)},
		{"CI variable", "shop/price.py", pyOld, strings.Replace(pyOld, "    return n * 3\n", "    if os.environ.get('CI'):\n        return n * 3\n    return n * 3\n", 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var fs []gate.Finding
			if tc.old == "" {
				fs = run(add(tc.path, tc.new))
			} else {
				fs = run(mod(tc.path, tc.old, tc.new))
			}
			for _, f := range fs {
				if f.Rule == "branches-on-test" && f.Severity >= gate.SeverityHigh {
					t.Errorf("look-alike reported high: %+v", f)
				}
			}
		})
	}
}

// TestSkipGuardsPythonJS: the environment and constant guards in Python
// and JavaScript, as in Go: high when an existing test gains one, medium
// for a platform guard.
func TestSkipGuardsPythonJS(t *testing.T) {
	const py = "import os\nimport sys\n\nimport pytest\n\n\ndef test_fetch():\n    assert fetch() == 1\n"
	const js = "test('fetches', () => {\n  expect(fetchIt()).toBe(1);\n});\n"
	for _, tc := range []struct {
		name, path, old, new, test string
		sev                        gate.Severity
	}{
		{"python env skip call", "tests/test_net.py", py, strings.Replace(py, "def test_fetch():\n", "def test_fetch():\n    if os.environ.get('CI'):\n        pytest.skip('flaky on CI')\n", 1), "test_fetch", gate.SeverityHigh},
		{"python env return", "tests/test_net.py", py, strings.Replace(py, "def test_fetch():\n", "def test_fetch():\n    if os.getenv('GITHUB_ACTIONS'):\n        return\n", 1), "test_fetch", gate.SeverityHigh},
		{"python skipif env", "tests/test_net.py", py, strings.Replace(py, "def test_fetch", "@pytest.mark.skipif('CI' in os.environ, reason='slow')\ndef test_fetch", 1), "test_fetch", gate.SeverityHigh},
		{"python if True return", "tests/test_net.py", py, strings.Replace(py, "def test_fetch():\n", "def test_fetch():\n    if True:\n        return\n", 1), "test_fetch", gate.SeverityHigh},
		{"python if True skip", "tests/test_net.py", py, strings.Replace(py, "def test_fetch():\n", "def test_fetch():\n    if True:\n        pytest.skip('later')\n", 1), "test_fetch", gate.SeverityHigh},
		{"vitest skipIf env", "src/net.test.js", js, strings.Replace(js, "test('fetches'", "test.skipIf(process.env.CI)('fetches'", 1), "fetches", gate.SeverityHigh},
		{"python platform skipif", "tests/test_net.py", py, strings.Replace(py, "def test_fetch", "@pytest.mark.skipif(sys.platform == 'win32', reason='posix')\ndef test_fetch", 1), "test_fetch", gate.SeverityMedium},
		{"vitest skipIf platform", "src/net.test.js", js, strings.Replace(js, "test('fetches'", "test.skipIf(process.platform === 'win32')('fetches'", 1), "fetches", gate.SeverityMedium},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := run(mod(tc.path, tc.old, tc.new))
			expectFinding(t, fs, gate.TestSkipping, tc.sev, tc.path, tc.test)
			if tc.sev == gate.SeverityMedium {
				expectNoHigh(t, fs)
			}
		})
	}
	// A guard already at BASE, and a new test born guarded, stay below high.
	guarded := strings.Replace(py, "def test_fetch():\n", "def test_fetch():\n    if os.environ.get('CI'):\n        pytest.skip('flaky on CI')\n", 1)
	expectNoHigh(t, run(mod("tests/test_net.py", guarded, guarded+"\n\ndef test_more():\n    assert fetch() == 1\n")))
	expectNoHigh(t, run(mod("tests/test_net.py", py, py+"\n\n@pytest.mark.skipif(not os.environ.get('DATABASE_URL'), reason='needs a database')\ndef test_db():\n    assert db() == 1\n")))
	// go test -short added to CI.
	fs := run(mod(".github/workflows/ci.yml", "on: [push, pull_request]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: go test ./...\n", "on: [push, pull_request]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: go test -short ./...\n"))
	expectFinding(t, fs, gate.TestSkipping, gate.SeverityHigh, ".github/workflows/ci.yml", "")
}
