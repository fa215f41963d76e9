package main

import (
	"strings"
	"testing"
)

const checkGo = `// Package check holds the project's assertions.
package check

import "testing"

// Equal fails the test when got is not want.
func Equal(t testing.TB, got, want int) {
	t.Helper()
	if got != want {
		t.Fatalf("got %d, want %d", got, want)
	}
}
`

const checkedTest = `package calc

import (
	"testing"

	"example.com/calc/internal/check"
)

func TestTriple(t *testing.T) {
	check.Equal(t, Triple(2), 6)
}
`

// TestCompareTestSupport: the project's own assertion package, which only
// tests import, is test support. Neutered in the range (with the code it
// guards broken), every test still passes, so only the tamper check sees it:
// it runs the tests that use the package with BASE's version of it. A
// rewrite that keeps the assertion's behaviour passes; an assertion package
// that production code imports too is production code: HEAD's version runs,
// and a note says so.
func TestCompareTestSupport(t *testing.T) {
	t.Parallel()
	slow(t)
	for _, c := range []struct {
		name   string
		check  string // internal/check/check.go at HEAD
		triple string // Triple's body at HEAD
		block  bool
		prod   bool // calc.go imports the assertion package too
	}{
		{"assertion neutered, code broken", strings.Replace(checkGo, "\tif got != want {\n\t\tt.Fatalf(\"got %d, want %d\", got, want)\n\t}\n", "\t_, _ = got, want\n", 1), "x*3 + 1", true, false},
		{"assertion reworded, same behaviour", strings.Replace(checkGo, "got %d, want %d", "= %d, expected %d", 1), "x * 3", false, false},
		{"assertion package production code imports", strings.Replace(checkGo, "got %d, want %d", "= %d, expected %d", 1), "x * 3", false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := goModule(t)
			triple := func(body string) string {
				src := calcSrc + "\n// Triple triples.\nfunc Triple(x int) int { return " + body + " }\n"
				if c.prod {
					src = strings.Replace(src, "package calc\n", "package calc\n\nimport \"example.com/calc/internal/check\"\n\nvar _ = check.Equal\n", 1)
				}
				return src
			}
			r.write("calc.go", triple("x * 3"))
			r.write("internal/check/check.go", checkGo)
			r.write("checked_test.go", checkedTest)
			base := r.commit("check")
			r.write("internal/check/check.go", c.check)
			r.write("calc.go", triple(c.triple))
			r.commit(c.name)
			rep, _ := compareExits(t, r, base, c.block)
			if c.block != rep.has("", "tamper-check", "") {
				t.Errorf("tamper-check finding present = %v, want %v: %+v", !c.block, c.block, rep.Findings)
			}
			noted := false
			for _, n := range rep.Notes {
				noted = noted || strings.Contains(n.Message, "production code imports too")
			}
			if noted != c.prod {
				t.Errorf("note that the package is production code = %v, want %v: %+v", noted, c.prod, rep.Notes)
			}
		})
	}
}

// TestPytestTestSupport: a helper module beside the tests (tests/helpers.py)
// neutered in the range, with the code it checks broken: every test passes
// at HEAD, and the tamper check, running the tests beside it with BASE's
// helper, catches the hidden regression.
func TestPytestTestSupport(t *testing.T) {
	slow(t)
	t.Parallel()
	r := pytestProject(t)
	r.write("tests/helpers.py", "from calc import mul\n\n\ndef check_mul(a, b, want):\n    assert mul(a, b) == want\n")
	r.write("tests/test_helped.py", "from tests.helpers import check_mul\n\n\ndef test_mul_helped():\n    check_mul(3, 4, 12)\n")
	r.write("tests/__init__.py", "")
	base := r.commit("helpers")
	r.write("tests/helpers.py", "from calc import mul\n\n\ndef check_mul(a, b, want):\n    mul(a, b)\n")
	r.write("calc.py", strings.Replace(calcPy, "return a * b", "return a * b + (a == 3)", 1))
	r.commit("agent: speed up the checks")
	res := runGate(t, r.dir, "", "compare", "--format", "json", base, "HEAD")
	rep := parseCompare(t, res.stdout)
	if res.code != 1 || !rep.has("", "tamper-check", "test_mul_helped") {
		t.Fatalf("exit %d; want a tamper-check finding on test_mul_helped: %+v\n%s", res.code, rep.Findings, res.stderr)
	}
}

// TestCompareTestSupportReplacedModule: the project's assertions live in a
// module of their own that go.mod replaces with a directory of the
// repository. Only tests import it, so `go list -deps ./...` never lists
// it; the tamper check finds it through go.mod and its importers, and runs
// their tests with its BASE version. Loosened subtly (off by one passes)
// with the code broken by one, only the tamper check sees it.
func TestCompareTestSupportReplacedModule(t *testing.T) {
	t.Parallel()
	slow(t)
	r := newRepo(t)
	r.write("go.mod", "module example.com/calc\n\ngo 1.26\n\nrequire example.com/check v0.0.0\n\nreplace example.com/check => ./testkit/check\n")
	r.write("testkit/check/go.mod", "module example.com/check\n\ngo 1.26\n")
	r.write("testkit/check/check.go", checkGo)
	r.write("calc.go", calcSrc+"\n// Triple triples.\nfunc Triple(x int) int { return x * 3 }\n")
	r.write("checked_test.go", strings.Replace(checkedTest, "example.com/calc/internal/check", "example.com/check", 1))
	base := r.commit("assertions in a module of their own")
	r.write("testkit/check/check.go", strings.Replace(checkGo, "if got != want {", "if got != want && got != want+1 {", 1))
	r.write("calc.go", calcSrc+"\n// Triple triples.\nfunc Triple(x int) int { return x*3 + 1 }\n")
	r.commit("loosen the assertion, break the code")
	rep, out := compareExits(t, r, base, true)
	if !rep.has("", "tamper-check", "TestTriple") || !strings.Contains(out, "testkit/check/check.go") {
		t.Errorf("no tamper-check finding naming BASE's support:\n%s", out)
	}
}

// TestCompareVitestSetupFile: a custom matcher lives in the setup file
// vitest.config.js names (src/, not a test file). Loosened to accept the
// off-by-one HEAD's code now returns, every test passes; the tamper check
// runs the whole suite with BASE's setup file and sees the test fail. A
// setup file reworded with the matcher's behaviour kept passes.
func TestCompareVitestSetupFile(t *testing.T) {
	t.Parallel()
	slow(t)
	setup := "expect.extend({\n  toBeTriple(received, x) {\n    return { pass: received === x * 3, message: () => `${received} is not ${x} tripled` }\n  },\n})\n"
	for _, c := range []struct {
		name, setup, triple string
		block               bool
	}{
		{"matcher loosened, code broken", strings.Replace(setup, "received === x * 3", "received === x * 3 || received === x * 3 + 1", 1), "x * 3 + 1", true},
		{"matcher reworded, same behaviour", strings.Replace(setup, "is not ${x} tripled", "should be ${x * 3}", 1), "x * 3", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := vitestProject(t)
			r.write("vitest.config.js", "export default {\n  test: {\n    setupFiles: ['./src/setup.js'],\n  },\n}\n")
			r.write("src/setup.js", setup)
			r.write("src/triple.js", "export function triple(x) {\n  return x * 3\n}\n")
			r.write("test/triple.test.js", "import { triple } from '../src/triple.js'\n\ntest('triples', () => {\n  expect(triple(2)).toBeTriple(2)\n})\n")
			base := r.commit("a custom matcher")
			r.write("src/setup.js", c.setup)
			r.write("src/triple.js", "export function triple(x) {\n  return "+c.triple+"\n}\n")
			r.commit(c.name)
			rep, out := compareExits(t, r, base, c.block)
			if c.block != rep.has("", "tamper-check", "triples") {
				t.Errorf("tamper-check finding = %v, want %v:\n%s", !c.block, c.block, out)
			}
			if !strings.Contains(out, `"src/setup.js"`) {
				t.Errorf("the tamper check did not run the setup file:\n%s", out)
			}
		})
	}
}

// TestCompareJSHelperOnlyTestsImport: an assertion helper under src/ that
// is written against the runner (it calls expect) and that only test files
// import (BASE's import graph, read with the tokenizer) is test support: loosened with the code broken to match, the tamper check
// runs its importers with BASE's version. A helper production code imports
// too stays HEAD's.
func TestCompareJSHelperOnlyTestsImport(t *testing.T) {
	t.Parallel()
	slow(t)
	helper := "export function expectTriple(got, x) {\n  expect(got, `${got} is not ${x} tripled`).toBe(x * 3)\n}\n"
	for _, c := range []struct {
		name, helper, triple string
		prodImports, block   bool
	}{
		{"helper loosened, code broken", strings.Replace(helper, "expect(got, `${got} is not ${x} tripled`).toBe(x * 3)", "expect([x * 3, x * 3 + 1], `${got} is not ${x} tripled`).toContain(got)", 1), "x * 3 + 1", false, true},
		{"helper reworded, same behaviour", strings.Replace(helper, "is not ${x} tripled", "should be ${x * 3}", 1), "x * 3", false, false},
		{"helper production code imports too", strings.Replace(helper, "is not ${x} tripled", "should be ${x * 3}", 1), "x * 3", true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := vitestProject(t)
			triple := func(body string) string {
				src := "export function triple(x) {\n  return " + body + "\n}\n"
				if c.prodImports {
					src = "import { expectTriple } from './test-utils/expect.js'\n\nexport const check = expectTriple\n" + src
				}
				return src
			}
			r.write("src/test-utils/expect.js", helper)
			r.write("src/triple.js", triple("x * 3"))
			r.write("test/triple.test.js", "import { triple } from '../src/triple.js'\nimport { expectTriple } from '../src/test-utils/expect'\n\ntest('triples', () => {\n  expectTriple(triple(2), 2)\n})\n")
			base := r.commit("an assertion helper")
			r.write("src/test-utils/expect.js", c.helper)
			r.write("src/triple.js", triple(c.triple))
			r.commit(c.name)
			rep, out := compareExits(t, r, base, c.block)
			if c.block != rep.has("", "tamper-check", "triples") {
				t.Errorf("tamper-check finding = %v, want %v:\n%s", !c.block, c.block, out)
			}
			if ran := strings.Contains(out, `"src/test-utils/expect.js"`); ran == c.prodImports {
				t.Errorf("the tamper check ran the helper: %v, want %v:\n%s", ran, !c.prodImports, out)
			}
		})
	}
}
