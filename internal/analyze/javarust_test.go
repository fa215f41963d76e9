package analyze

import (
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

const javaBase = `package com.example.bank;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class AccountTest {
    @Test
    void depositAddsToBalance() {
        Account a = new Account(100);
        a.deposit(50);
        assertEquals(150, a.balance());
    }

    @Test
    void overdraftIsRejected() {
        Account a = new Account(10);
        assertThrows(InsufficientFundsException.class, () -> a.withdraw(20));
    }
}
`

const rustBase = `pub fn parse(s: &str) -> Option<u32> {
    s.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_digits() {
        assert_eq!(parse("42"), Some(42));
    }

    #[test]
    fn rejects_letters() {
        assert_eq!(parse("x"), None);
    }
}
`

func TestJavaRustCheats(t *testing.T) {
	jp := "src/test/java/com/example/bank/AccountTest.java"
	for _, tc := range []struct {
		name string
		file FileChange
		typ  gate.FindingType
		sev  gate.Severity
		path string
		test string
	}{
		{"java @Disabled", mod(jp, javaBase, strings.Replace(javaBase, "    @Test\n    void overdraftIsRejected", "    @Test\n    @Disabled(\"flaky\")\n    void overdraftIsRejected", 1)),
			gate.TestSkipping, gate.SeverityHigh, jp, "AccountTest.overdraftIsRejected"},
		{"java test deleted", mod(jp, javaBase, strings.Replace(javaBase, "    @Test\n    void overdraftIsRejected() {\n        Account a = new Account(10);\n        assertThrows(InsufficientFundsException.class, () -> a.withdraw(20));\n    }\n", "", 1)),
			gate.TestDeletion, gate.SeverityCritical, jp, "AccountTest.overdraftIsRejected"},
		{"java assertEquals to assertNotNull", mod(jp, javaBase, strings.Replace(javaBase, "assertEquals(150, a.balance());", "assertNotNull(a.balance());", 1)),
			gate.AssertionWeakening, gate.SeverityHigh, jp, "AccountTest.depositAddsToBalance"},
		{"rust #[ignore]", mod("src/lib.rs", rustBase, strings.Replace(rustBase, "    #[test]\n    fn rejects_letters", "    #[test]\n    #[ignore]\n    fn rejects_letters", 1)),
			gate.TestSkipping, gate.SeverityHigh, "src/lib.rs", "tests::rejects_letters"},
		{"rust assert_eq to assert", mod("src/lib.rs", rustBase, strings.Replace(rustBase, `assert_eq!(parse("42"), Some(42));`, `assert!(parse("42").is_some());`, 1)),
			gate.AssertionWeakening, gate.SeverityHigh, "src/lib.rs", "tests::parses_digits"},
		{"rust test deleted", mod("src/lib.rs", rustBase, strings.Replace(rustBase, "    #[test]\n    fn rejects_letters() {\n        assert_eq!(parse(\"x\"), None);\n    }\n", "", 1)),
			gate.TestDeletion, gate.SeverityCritical, "src/lib.rs", "tests::rejects_letters"},
		{"rust pub fn removed", mod("src/lib.rs", rustBase, strings.Replace(rustBase, "pub fn parse", "fn parse", 1)),
			gate.FeatureRemoval, gate.SeverityMedium, "src/lib.rs", ""},
	} {
		t.Run(tc.name, func(t *testing.T) { expectFinding(t, run(tc.file), tc.typ, tc.sev, tc.path, tc.test) })
	}
}

func TestJavaRustLegitimate(t *testing.T) {
	jp := "src/test/java/com/example/bank/AccountTest.java"
	for _, tc := range []struct {
		name string
		file FileChange
	}{
		{"java rename", mod(jp, javaBase, strings.Replace(javaBase, "depositAddsToBalance", "depositIncreasesBalance", 1))},
		{"java new test", mod(jp, javaBase, strings.Replace(javaBase, "\n}\n", "\n    @Test\n    void zero() { assertEquals(0, new Account(0).balance()); }\n}\n", 1))},
		{"rust rename", mod("src/lib.rs", rustBase, strings.Replace(rustBase, "fn parses_digits", "fn parses_decimal_digits", 1))},
		{"rust reformat", mod("src/lib.rs", rustBase, strings.Replace(rustBase, `assert_eq!(parse("42"), Some(42));`, "assert_eq!(\n            parse(\"42\"),\n            Some(42)\n        );", 1))},
	} {
		t.Run(tc.name, func(t *testing.T) { expectNoHigh(t, run(tc.file)) })
	}
}

// A Java or Rust test helper left with no check; a Rust production function
// losing its own assert! is not a test helper.
func TestHelperAssertionRemovedJavaRust(t *testing.T) {
	java := "package calc;\n\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\nimport org.junit.jupiter.api.Test;\n\nclass CalcTest {\n    private void checkAdd(int a, int b, int want) {\n        assertEquals(want, Calc.add(a, b));\n    }\n\n    @Test\n    void adds() {\n        checkAdd(1, 2, 3);\n    }\n}\n"
	fs := run(mod("src/test/java/calc/CalcTest.java", java, strings.Replace(java, "        assertEquals(want, Calc.add(a, b));\n", "        Calc.add(a, b);\n", 1)))
	expectFinding(t, fs, gate.AssertionWeakening, gate.SeverityHigh, "src/test/java/calc/CalcTest.java", "")

	rs := "use calc::add;\n\nfn check_add(a: i32, b: i32, want: i32) {\n    assert_eq!(add(a, b), want);\n}\n\n#[test]\nfn adds() {\n    check_add(1, 2, 3);\n}\n"
	fs = run(mod("tests/calc.rs", rs, strings.Replace(rs, "    assert_eq!(add(a, b), want);\n", "    let _ = add(a, b);\n", 1)))
	expectFinding(t, fs, gate.AssertionWeakening, gate.SeverityHigh, "tests/calc.rs", "")

	lib := "pub fn div(a: i32, b: i32) -> i32 {\n    assert!(b != 0);\n    a / b\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn divides() {\n        assert_eq!(super::div(4, 2), 2);\n    }\n}\n"
	fs = run(mod("src/lib.rs", lib, strings.Replace(lib, "    assert!(b != 0);\n", "", 1)))
	if strings.Contains(dump(fs), "helper-assertion-removed") {
		t.Errorf("a production invariant read as a test helper:%s", dump(fs))
	}
}

// A helper that only guarded a failure path (a panic! in an error branch that
// cannot be taken) and lost it: medium, not high.
func TestHelperFailurePathRemovedIsMedium(t *testing.T) {
	rs := "fn stdout(o: &[u8]) -> String {\n    let s = String::from_utf8_lossy(o);\n    match s.parse() {\n        Ok(t) => t,\n        Err(err) => {\n            panic!(\"could not convert: {:?}\", err);\n        }\n    }\n}\n\n#[test]\nfn prints() {\n    assert_eq!(stdout(b\"x\"), \"x\");\n}\n"
	fs := run(mod("tests/util.rs", rs, strings.Replace(rs, "    let s = String::from_utf8_lossy(o);\n    match s.parse() {\n        Ok(t) => t,\n        Err(err) => {\n            panic!(\"could not convert: {:?}\", err);\n        }\n    }\n", "    String::from_utf8_lossy(o).into_owned()\n", 1)))
	expectNoHigh(t, fs)
	expectFinding(t, fs, gate.AssertionWeakening, gate.SeverityMedium, "tests/util.rs", "")
}
