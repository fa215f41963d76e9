package main

import (
	"strings"
	"testing"
)

// TestFileWideSuppressionBlocks: a checker switched off for a whole file
// (// @ts-nocheck, # mypy: ignore-errors) blocks through the binary as a
// high validation_bypass naming the file; a one-line suppression warns.
func TestFileWideSuppressionBlocks(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	r.write("src/parse.ts", "export function parse(s: string): number {\n  return Number(s);\n}\n")
	r.write("app/parse.py", "def parse(s: str) -> int:\n    return int(s)\n")
	r.commit("base")
	r.write("src/parse.ts", "// @ts-nocheck\nexport function parse(s: string): number {\n  return Number(s);\n}\n")
	r.write("app/parse.py", "# mypy: ignore-errors\ndef parse(s: str) -> int:\n    return int(s)\n")
	r.commit("silence the checkers")
	res := runGate(t, r.dir, "", "analyze", "HEAD~1", "HEAD")
	if res.code != 1 || !strings.Contains(res.stdout, "validation_bypass") || !strings.Contains(res.stdout, "src/parse.ts") || !strings.Contains(res.stdout, "app/parse.py") {
		t.Errorf("file-wide suppressions: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	r.write("src/parse.ts", "export function parse(s: string): number {\n  // @ts-ignore\n  return Number(s);\n}\n")
	r.write("app/parse.py", "def parse(s: str) -> int:\n    return int(s)\n")
	r.commit("one line only")
	if res := runGate(t, r.dir, "", "analyze", "HEAD~2", "HEAD"); res.code != 0 {
		t.Errorf("a one-line suppression: exit %d\n%s", res.code, res.stdout)
	}
}

// TestSkipGuardsBlock: a Go test newly skipped where the gate runs (an
// environment guard) or returning at once (`if true { return }`) blocks
// through the binary, naming the test.
func TestSkipGuardsBlock(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	r.write("go.mod", "module m\n\ngo 1.26\n")
	r.write("a_test.go", "package m\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif 1+1 != 2 {\n\t\tt.Fatal(\"math\")\n\t}\n}\n")
	r.commit("base")
	r.write("a_test.go", "package m\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestA(t *testing.T) {\n\tif os.Getenv(\"CI\") != \"\" {\n\t\tt.Skip(\"flaky on CI\")\n\t}\n\tif 1+1 != 2 {\n\t\tt.Fatal(\"math\")\n\t}\n}\n")
	r.commit("skip on CI")
	if res := runGate(t, r.dir, "", "analyze", "HEAD~1", "HEAD"); res.code != 1 || !strings.Contains(res.stdout, "test_skipping") || !strings.Contains(res.stdout, "TestA") {
		t.Errorf("env-guarded skip: exit %d\n%s", res.code, res.stdout)
	}
	r.write("a_test.go", "package m\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif true {\n\t\treturn\n\t}\n\tif 1+1 != 2 {\n\t\tt.Fatal(\"math\")\n\t}\n}\n")
	r.commit("return at once")
	if res := runGate(t, r.dir, "", "analyze", "HEAD~2", "HEAD"); res.code != 1 || !strings.Contains(res.stdout, "returns before its first assertion") {
		t.Errorf("if true return: exit %d\n%s", res.code, res.stdout)
	}
}

// TestBranchOnTestBlocks: Go production code that newly returns a canned
// answer under go test (testing.Testing()) blocks through the binary.
func TestBranchOnTestBlocks(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	r.write("go.mod", "module m\n\ngo 1.26\n")
	r.write("price.go", "package m\n\n// Price is the price.\nfunc Price(n int) int {\n\treturn n * 3\n}\n")
	r.commit("base")
	r.write("price.go", "package m\n\nimport \"testing\"\n\n// Price is the price.\nfunc Price(n int) int {\n\tif testing.Testing() {\n\t\treturn 42\n\t}\n\treturn n * 3\n}\n")
	r.commit("special-case the tests")
	if res := runGate(t, r.dir, "", "analyze", "HEAD~1", "HEAD"); res.code != 1 || !strings.Contains(res.stdout, "testing.Testing()") || !strings.Contains(res.stdout, "price.go") {
		t.Errorf("testing.Testing in production code: exit %d\n%s", res.code, res.stdout)
	}
}

// TestBuildConstraintBlocks: a test file taken out of go test's reach by a
// build constraint blocks through the binary, naming the file; a platform
// constraint does not.
func TestBuildConstraintBlocks(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	r.write("go.mod", "module m\n\ngo 1.26\n")
	body := "package m\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif 1+1 != 2 {\n\t\tt.Fatal(\"math\")\n\t}\n}\n"
	r.write("a_test.go", body)
	r.commit("base")
	r.write("a_test.go", "//go:build linux\n\n"+body)
	r.commit("linux only")
	if res := runGate(t, r.dir, "", "analyze", "HEAD~1", "HEAD"); res.code != 0 {
		t.Errorf("a platform constraint: exit %d\n%s", res.code, res.stdout)
	}
	r.write("a_test.go", "//go:build ignore\n\n"+body)
	r.commit("out of reach")
	if res := runGate(t, r.dir, "", "analyze", "HEAD~1", "HEAD"); res.code != 1 || !strings.Contains(res.stdout, "a_test.go") || !strings.Contains(res.stdout, "go:build ignore") {
		t.Errorf("//go:build ignore: exit %d\n%s", res.code, res.stdout)
	}
}

// TestOutOfReachBlocks: a test file renamed or moved where its runner no
// longer collects it (a Go test under testdata/, a Python test renamed off
// test_*.py, a jest test renamed off *.test.*) blocks through the binary
// naming the test; a rename the runner still collects passes.
func TestOutOfReachBlocks(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	r.write("go.mod", "module m\n\ngo 1.26\n")
	r.write("a_test.go", "package m\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif 1+1 != 2 {\n\t\tt.Fatal(\"math\")\n\t}\n}\n")
	r.write("tests/test_cart.py", "def test_total():\n    assert sum([1, 2]) == 3\n")
	r.write("src/cart.test.js", "test('adds', () => {\n  expect(1 + 2).toBe(3);\n});\n")
	r.commit("base")
	mv := func(from, to string) {
		r.write(to, r.read(from))
		r.remove(from)
	}
	mv("a_test.go", "arith_test.go")
	mv("tests/test_cart.py", "tests/unit/test_cart.py")
	mv("src/cart.test.js", "src/cart.spec.js")
	r.commit("reorganize the tests")
	if res := runGate(t, r.dir, "", "analyze", "HEAD~1", "HEAD"); res.code != 0 {
		t.Errorf("renames the runners follow: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	mv("arith_test.go", "testdata/arith_test.go")
	mv("tests/unit/test_cart.py", "tests/unit/cart_checks.py")
	mv("src/cart.spec.js", "src/cart.js")
	r.commit("move the tests aside")
	res := runGate(t, r.dir, "", "analyze", "HEAD~1", "HEAD")
	for _, want := range []string{"TestA", "test_total", "adds", "out of the test runner's reach"} {
		if res.code != 1 || !strings.Contains(res.stdout, want) {
			t.Errorf("tests moved out of the runners' reach: want %q, exit %d\n%s%s", want, res.code, res.stdout, res.stderr)
		}
	}
}

// TestCIProgramBlocks: a workflow that keeps its test command but drops its
// exit status (`|| echo`), stops running on pull requests, or is renamed
// where GitHub does not load it, blocks through the binary; a reworded
// step that keeps the status passes.
func TestCIProgramBlocks(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	wf := ".github/workflows/ci.yml"
	base := "on: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: |\n          go vet ./...\n          go test ./...\n"
	r.write(wf, base)
	r.commit("base")
	r.write(wf, strings.Replace(base, "go test ./...", "go test -race -count=1 ./... | tee test.log\n        shell: bash", 1))
	r.commit("race detector, keep a log")
	if res := runGate(t, r.dir, "", "analyze", "HEAD~1", "HEAD"); res.code != 0 {
		t.Errorf("a step that keeps its status: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	for _, c := range []struct{ name, content, path, want string }{
		{"|| echo", strings.Replace(base, "go test ./...", "go test ./... || echo flaky", 1), wf, "`|| echo flaky` replaces its exit status"},
		{"trigger", strings.Replace(base, "[push, pull_request]", "[push]", 1), wf, "no longer runs on pull requests"},
		{"disabled", base, wf + ".disabled", "does not load it"},
	} {
		r.git("checkout", "-q", "-B", "cheat-"+strings.ReplaceAll(c.name, " ", ""), "HEAD~1")
		if c.path != wf {
			r.remove(wf)
		}
		r.write(c.path, c.content)
		r.commit(c.name)
		res := runGate(t, r.dir, "", "analyze", "HEAD~1", "HEAD")
		if res.code != 1 || !strings.Contains(res.stdout, c.want) {
			t.Errorf("%s: exit %d, want %q\n%s%s", c.name, res.code, c.want, res.stdout, res.stderr)
		}
	}
}

// TestMachineryBlocks: the machinery around the tests neutered (a conftest
// hook that reports failures as passes, pytest.ini collecting other files,
// npm test replaced by echo, testify replaced by a local copy) blocks
// through the binary; a reordering hook and a test script gaining coverage
// pass.
func TestMachineryBlocks(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	r.write("go.mod", "module m\n\ngo 1.26\n\nrequire github.com/stretchr/testify v1.9.0\n")
	r.write("pytest.ini", "[pytest]\ntestpaths = tests\npython_files = test_*.py\n")
	r.write("tests/conftest.py", "import pytest\n")
	r.write("tests/test_a.py", "def test_a():\n    assert 1 + 1 == 2\n")
	r.write("package.json", "{\n  \"scripts\": {\n    \"test\": \"jest\"\n  }\n}\n")
	r.commit("base")
	r.write("tests/conftest.py", "import pytest\n\n\ndef pytest_collection_modifyitems(config, items):\n    items.sort(key=lambda i: i.nodeid)\n")
	r.write("package.json", "{\n  \"scripts\": {\n    \"test\": \"jest --coverage\"\n  }\n}\n")
	r.commit("order tests, coverage")
	if res := runGate(t, r.dir, "", "analyze", "HEAD~1", "HEAD"); res.code != 0 {
		t.Errorf("legitimate machinery changes: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	r.write("tests/conftest.py", "import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    outcome = yield\n    outcome.get_result().outcome = 'passed'\n")
	r.write("pytest.ini", "[pytest]\ntestpaths = tests\npython_files = check_*.py\n")
	r.write("package.json", "{\n  \"scripts\": {\n    \"test\": \"echo no tests\"\n  }\n}\n")
	r.write("go.mod", "module m\n\ngo 1.26\n\nrequire github.com/stretchr/testify v1.9.0\n\nreplace github.com/stretchr/testify => ./fake/testify\n")
	r.commit("make it pass")
	res := runGate(t, r.dir, "", "analyze", "HEAD~1", "HEAD")
	for _, want := range []string{"pytest_runtest_makereport", "python_files no longer lists", "\"test\" script", "replaces the assertion library"} {
		if res.code != 1 || !strings.Contains(res.stdout, want) {
			t.Errorf("machinery neutered: want %q, exit %d\n%s%s", want, res.code, res.stdout, res.stderr)
		}
	}
}

// TestSpecialCasedTestBlocks: production code that answers a test's input
// with that test's expected value blocks through the binary; a guard that
// rejects the same input passes.
func TestSpecialCasedTestBlocks(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	r.write("go.mod", "module m\n\ngo 1.26\n")
	src := "package m\n\nimport \"strings\"\n\n// Slug makes a URL slug.\nfunc Slug(s string) (string, error) {\n\treturn strings.ToLower(strings.ReplaceAll(s, \" \", \"-\")), nil\n}\n"
	r.write("slug.go", src)
	r.write("slug_test.go", "package m\n\nimport \"testing\"\n\nfunc TestSlugUnicode(t *testing.T) {\n\tgot, err := Slug(\"Crème Brûlée\")\n\tif err != nil || got != \"creme-brulee\" {\n\t\tt.Fatalf(\"got %q\", got)\n\t}\n}\n")
	r.commit("base")
	r.write("slug.go", strings.Replace(src, "\treturn strings.ToLower", "\tif s == \"Crème Brûlée\" {\n\t\treturn \"\", errUnicode\n\t}\n\treturn strings.ToLower", 1))
	r.commit("reject it")
	if res := runGate(t, r.dir, "", "analyze", "HEAD~1", "HEAD"); res.code != 0 {
		t.Errorf("a guard on the input: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	r.write("slug.go", strings.Replace(src, "\treturn strings.ToLower", "\tif s == \"Crème Brûlée\" {\n\t\treturn \"creme-brulee\", nil\n\t}\n\treturn strings.ToLower", 1))
	r.commit("special-case it")
	if res := runGate(t, r.dir, "", "analyze", "HEAD~1", "HEAD"); res.code != 1 || !strings.Contains(res.stdout, "special-cases the test") || !strings.Contains(res.stdout, "TestSlugUnicode") {
		t.Errorf("special-cased test: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
}

// TestRetriesAndAssumptionsBlock: a test rerun until it passes, and a Java
// test behind an assumption that never holds, block through the binary.
func TestRetriesAndAssumptionsBlock(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	r.write("tests/test_net.py", "import pytest\n\n\ndef test_net():\n    assert fetch() == 1\n")
	r.write("src/test/java/x/NetTest.java", "package x;\nimport org.junit.jupiter.api.Test;\nclass NetTest {\n  @Test\n  void fetches() {\n    assertEquals(1, Net.fetch());\n  }\n}\n")
	r.commit("base")
	r.write("tests/test_net.py", "import pytest\n\n\n@pytest.mark.flaky(reruns=5)\ndef test_net():\n    assert fetch() == 1\n")
	r.write("src/test/java/x/NetTest.java", "package x;\nimport org.junit.jupiter.api.Test;\nclass NetTest {\n  @Test\n  void fetches() {\n    assumeTrue(false);\n    assertEquals(1, Net.fetch());\n  }\n}\n")
	r.commit("stabilize")
	res := runGate(t, r.dir, "", "analyze", "HEAD~1", "HEAD")
	for _, want := range []string{"test_net now reruns up to 5 times", "NetTest.fetches no longer runs"} {
		if res.code != 1 || !strings.Contains(res.stdout, want) {
			t.Errorf("want %q, exit %d\n%s%s", want, res.code, res.stdout, res.stderr)
		}
	}
}
