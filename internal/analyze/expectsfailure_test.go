package analyze

import (
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scanners"
)

// TestFailureExpectedOutsideTheBody: what expects a test's failure from
// outside its body puts its checks under an Inverted arm when a failed
// check satisfies it, and not when only another failure does.
func TestFailureExpectedOutsideTheBody(t *testing.T) {
	rs := func(attr string) string {
		return "use demo::add;\n\n#[test]\n" + attr + "\nfn adds() {\n    assert_eq!(add(2, 2), 4);\n}\n"
	}
	jv := func(ann string) string {
		return "package x;\n\nimport static org.junit.Assert.assertEquals;\n\nimport org.junit.Test;\n\npublic class CalcTest {\n  " + ann + "\n  public void adds() {\n    assertEquals(4, Calc.add(2, 2));\n  }\n}\n"
	}
	for _, tc := range []struct {
		path, src string
		inverted  bool
	}{
		{"tests/add.rs", rs("#[should_panic]"), true},
		{"tests/add.rs", rs(`#[should_panic(expected = "assertion")]`), true},
		{"tests/add.rs", rs(`#[should_panic(expected = "left == right")]`), true},
		{"tests/add.rs", rs(`#[should_panic(expected = "attempt to add with overflow")]`), false},
		{"tests/add.rs", rs(""), false},
		{"src/test/java/x/CalcTest.java", jv("@Test(expected = AssertionError.class)"), true},
		{"src/test/java/x/CalcTest.java", jv("@Test(expected = java.lang.Throwable.class)"), true},
		{"src/test/java/x/CalcTest.java", jv("@Test(expected = IllegalArgumentException.class)"), false},
		{"src/test/java/x/CalcTest.java", jv("@Test"), false},
	} {
		f, err := scanners.ForPath(tc.path).Extract(tc.path, []byte(tc.src))
		if err != nil || len(f.Tests) != 1 {
			t.Fatalf("%s: %v", tc.src, err)
		}
		got := false
		for _, a := range f.Tests[0].Assertions {
			for _, arm := range a.Arms {
				got = got || strings.HasPrefix(arm.Cond, testscan.Inverted)
			}
		}
		if got != tc.inverted {
			t.Errorf("%s: checks inverted %v, want %v", tc.src, got, tc.inverted)
		}
	}
}
