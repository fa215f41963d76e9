package analyze

import (
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// TestOutOfRunnersReach: a test file renamed or moved to where its runner
// no longer collects it loses its tests without a deleted line; each such
// move is test_deletion critical naming the test. Moves the runner still
// collects, and fixtures the runner never collected, stay quiet.
func TestOutOfRunnersReach(t *testing.T) {
	const goFile = "calc/calc_test.go"
	const pyFile = "tests/test_cart.py"
	const jsFile = "src/auth.test.ts"
	const javaFile = "src/test/java/com/example/bank/AccountTest.java"
	const rustFile = "tests/parse.rs"
	edited := func(s string) string { return s + "\n// kept for later\n" }
	pyEdited := pyBase + "\n# kept for later\n"
	for _, tc := range []struct {
		name  string
		files []FileChange
		file  string
		test  string
		want  string // in the message
	}{
		{"go renamed off *_test.go", []FileChange{mv(goFile, "calc/calc_test_off.go", goTestBase, goTestBase)}, goFile, "TestAdd", "only files named *_test.go"},
		{"go renamed with an underscore", []FileChange{mv(goFile, "calc/_calc_test.go", goTestBase, goTestBase)}, goFile, "TestDivide", "underscore or a dot"},
		{"go moved to testdata", []FileChange{mv(goFile, "calc/testdata/calc_test.go", goTestBase, goTestBase)}, goFile, "TestDivide", "testdata/"},
		{"go moved to vendor", []FileChange{mv(goFile, "vendor/example.com/calc/calc_test.go", goTestBase, goTestBase)}, goFile, "TestAdd", "vendor/"},
		{"go moved to a dot directory", []FileChange{mv(goFile, ".old/calc_test.go", goTestBase, goTestBase)}, goFile, "TestAdd", "underscore or a dot"},
		// testdata/ is ignored by default: the deleted file's tests are
		// reported as deleted with it.
		{"go deleted and re-added under testdata, edited", []FileChange{del(goFile, goTestBase), add("calc/testdata/old_test.go", edited(goTestBase))}, goFile, "TestAdd", ""},
		{"python renamed off test_*.py", []FileChange{mv(pyFile, "tests/cart_checks.py", pyBase, pyBase)}, pyFile, "test_total_empty", "test_*.py"},
		{"python renamed and edited", []FileChange{mv(pyFile, "tests/cart_checks.py", pyBase, pyEdited)}, pyFile, "TestDiscount::test_ten_percent", "test_*.py"},
		{"python moved under build/", []FileChange{mv(pyFile, "build/test_cart.py", pyBase, pyBase)}, pyFile, "test_total_empty", "build/"},
		{"js renamed off *.test.*", []FileChange{mv(jsFile, "src/auth.checks.ts", jsBase, jsBase)}, jsFile, "", "*.test.*"},
		{"js renamed .test.skip.ts", []FileChange{mv(jsFile, "src/auth.test.skip.ts", jsBase, jsBase)}, jsFile, "", "*.test.*"},
		{"js moved under node_modules", []FileChange{mv(jsFile, "node_modules/auth/auth.test.ts", jsBase, jsBase)}, jsFile, "", "node_modules/"},
		{"js moved under dist", []FileChange{mv(jsFile, "dist/auth.test.ts", jsBase, jsBase)}, jsFile, "", "dist/"},
		{"js deleted, re-added off pattern", []FileChange{del(jsFile, jsBase), add("src/auth.fixture.ts", edited(jsBase))}, jsFile, "", "*.test.*"},
		{"java renamed off Surefire's includes", []FileChange{mv(javaFile, "src/test/java/com/example/bank/AccountChecks.java", javaBase, strings.Replace(javaBase, "class AccountTest", "class AccountChecks", 1))}, javaFile, "", "Surefire"},
		{"rust moved to examples", []FileChange{mv(rustFile, "examples/parse.rs", rustBase, rustBase)}, rustFile, "", "examples/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := run(tc.files...)
			expectFinding(t, fs, gate.TestDeletion, gate.SeverityCritical, tc.file, tc.test)
			if tc.want != "" && (!strings.Contains(dump(fs), "out of the test runner's reach: ") || !strings.Contains(dump(fs), tc.want)) {
				t.Errorf("message does not say why the runner lost it (%q):%s", tc.want, dump(fs))
			}
		})
	}

	for _, tc := range []struct {
		name  string
		files []FileChange
	}{
		{"go renamed to another test file", []FileChange{mv(goFile, "calc/arith_test.go", goTestBase, goTestBase)}},
		{"go moved to another package", []FileChange{mv(goFile, "arith/calc_test.go", goTestBase, strings.Replace(goTestBase, "package calc", "package arith", 1))}},
		{"go fixture under testdata edited", []FileChange{mod("calc/testdata/src/calc_test.go", goTestBase, strings.Replace(goTestBase, "func TestAdd", "func testAdd", 1))}},
		{"go fixture under testdata deleted", []FileChange{del("analysis/testdata/a/calc_test.go", goTestBase)}},
		{"go vendored test deleted", []FileChange{del("vendor/example.com/calc/calc_test.go", goTestBase)}},
		{"go fixture moved into testdata from testdata", []FileChange{mv("testdata/a/calc_test.go", "testdata/b/calc_test.go", goTestBase, goTestBase)}},
		{"python moved to a subdirectory", []FileChange{mv(pyFile, "tests/unit/test_cart.py", pyBase, pyBase)}},
		{"python renamed to *_test.py", []FileChange{mv(pyFile, "tests/cart_test.py", pyBase, pyBase)}},
		{"python base module edited in place", []FileChange{mod("tests/base.py", pyBase, pyEdited)}},
		{"python mixin extracted", []FileChange{mod(pyFile, pyBase, "import pytest\n\nfrom tests.mixins import *\n"), add("tests/mixins.py", pyBase)}},
		{"js renamed to .spec", []FileChange{mv(jsFile, "src/auth.spec.ts", jsBase, jsBase)}},
		{"js moved into __tests__", []FileChange{mv(jsFile, "src/__tests__/auth.ts", jsBase, jsBase)}},
		{"js moved into test/", []FileChange{mv(jsFile, "test/auth.ts", jsBase, jsBase)}},
		{"java renamed to *Tests", []FileChange{mv(javaFile, "src/test/java/com/example/bank/AccountTests.java", javaBase, strings.Replace(javaBase, "class AccountTest", "class AccountTests", 1))}},
		{"java abstract base edited in place", []FileChange{mod("src/test/java/com/example/bank/AccountBase.java", javaBase, javaBase+"\n")}},
		{"rust moved within tests/", []FileChange{mv(rustFile, "tests/parsing.rs", rustBase, rustBase)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := run(tc.files...)
			expectNoHigh(t, fs)
			if strings.Contains(dump(fs), "runner's reach") {
				t.Errorf("a move the runner follows reported as lost:%s", dump(fs))
			}
		})
	}
}

func FuzzNotCollected(f *testing.F) {
	for _, s := range []string{"a/b_test.go", "testdata/x_test.go", "tests/test_a.py", "src/a.test.ts", "src/test/java/FooTest.java", "examples/a.rs", "", "/", "\\a\\b.test.js"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		for _, lang := range []testscan.Lang{testscan.Go, testscan.Python, testscan.JavaScript, testscan.Java, testscan.Rust, "other"} {
			why := notCollected(lang, p)
			if lang == "other" && why != "" {
				t.Fatalf("unknown language judged: %q", why)
			}
			if lang == testscan.Go && why == "" && (!strings.HasSuffix(p, "_test.go") || strings.Contains("/"+strings.ReplaceAll(p, "\\", "/")+"/", "/testdata/")) {
				t.Fatalf("go test would not collect %q", p)
			}
		}
	})
}
