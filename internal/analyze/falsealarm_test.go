package analyze

import (
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// The shapes below are those of real projects' files (JUnit 5's user guide
// examples, golangci-lint's own .golangci.yml, prometheus's nolint
// comments, a scheduled docs workflow): refactors that once raised false
// alarms.

const junitBefore = `package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CalculatorTests {
    @Test
    void addsOneAndOne() {
        assertEquals(2, new Calculator().add(1, 1));
    }

    @Test
    void addsTwoAndThree() {
        assertEquals(5, new Calculator().add(2, 3));
    }

    @Test
    void addsNegatives() {
        assertEquals(-3, new Calculator().add(-1, -2));
    }
}
`

const junitAfter = `package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CalculatorTests {
    @ParameterizedTest(name = "{0} + {1} = {2}")
    @CsvSource({
        "1,    1,   2",
        "2,    3,   5",
        "-1,  -2,  -3"
    })
    void add(int first, int second, int expectedResult) {
        assertEquals(expectedResult, new Calculator().add(first, second),
                () -> first + " + " + second + " should equal " + expectedResult);
    }
}
`

const golangciBase = `linters:
  enable:
    - errcheck
    - govet
    - staticcheck
`

// TestFalseAlarms: each refactor stays below high; each cheat beside it is
// still reported.
func TestFalseAlarms(t *testing.T) {
	const jp = "src/test/java/com/example/CalculatorTests.java"
	for _, tc := range []struct {
		name string
		file FileChange
	}{
		{"junit tests folded into @CsvSource", mod(jp, junitBefore, junitAfter)},
		{"junit tests folded into @ValueSource", mod(jp, "package x;\nimport org.junit.jupiter.api.Test;\nclass PalTest {\n    @Test\n    void racecar() {\n        assertTrue(isPalindrome(\"racecar\"));\n    }\n    @Test\n    void radar() {\n        assertTrue(isPalindrome(\"radar\"));\n    }\n}\n", "package x;\nclass PalTest {\n    @ParameterizedTest\n    @ValueSource(strings = { \"racecar\", \"radar\" })\n    void palindromes(String candidate) {\n        assertTrue(isPalindrome(candidate));\n    }\n}\n")},
		{"nolint narrowed to one linter", mod("db/db.go", "package db\n\nfunc f() {\n\t_ = g() //nolint\n}\n", "package db\n\nfunc f() {\n\t_ = g() //nolint:errcheck\n}\n")},
		{"noqa narrowed to a code", mod("app/io.py", "import os, sys  # noqa\n", "import os, sys  # noqa: E401\n")},
		{"type: ignore narrowed", mod("app/io.py", "x = f()  # type: ignore\n", "x = f()  # type: ignore[no-untyped-call]\n")},
		{"golangci linter enabled", mod(".golangci.yml", golangciBase, golangciBase+"    - gosec\n")},
		{"optional scheduled job continue-on-error", mod(".github/workflows/docs.yml", "on:\n  schedule:\n    - cron: '0 3 * * *'\njobs:\n  docs:\n    runs-on: ubuntu-latest\n    steps:\n      - run: ./scripts/build-docs.sh\n", "on:\n  schedule:\n    - cron: '0 3 * * *'\njobs:\n  docs:\n    runs-on: ubuntu-latest\n    steps:\n      - run: ./scripts/build-docs.sh\n        continue-on-error: true\n")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := run(tc.file)
			expectNoHigh(t, fs)
			if tc.name != "junit tests folded into @CsvSource" && tc.name != "junit tests folded into @ValueSource" && len(fs) > 0 {
				t.Errorf("want no finding:%s", dump(fs))
			}
		})
	}

	// The cheats beside them.
	dropped := strings.Replace(junitAfter, "        \"-1,  -2,  -3\"\n", "", 1)
	dropped = strings.Replace(dropped, "\"2,    3,   5\",", "\"2,    3,   5\"", 1)
	expectFinding(t, run(mod(jp, junitBefore, dropped)), gate.TestDeletion, gate.SeverityCritical, jp, "CalculatorTests.addsNegatives")
	fs := run(mod("db/db.go", "package db\n\nfunc f() {\n\t_ = g() //nolint:errcheck\n}\n", "package db\n\nfunc f() {\n\t_ = g() //nolint:errcheck,govet\n}\n"))
	expectFinding(t, fs, gate.ErrorSuppression, gate.SeverityMedium, "db/db.go", "")
	fs = run(mod(".golangci.yml", golangciBase, golangciBase+"  disable:\n    - errcheck\n"))
	expectFinding(t, fs, gate.ValidationBypass, gate.SeverityMedium, ".golangci.yml", "")
	if n := len(fs); n != 1 {
		t.Errorf("a disable list: want one finding, got %d:%s", n, dump(fs))
	}
}
