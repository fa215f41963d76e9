package java

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// TestVerifyMode reads Mockito's verification modes honestly: times(1) is
// the default, never(), times(0) and atMost(0) verify an absence (the
// opposite sense), atLeast(0) checks nothing, and any other mode is part of
// what is verified.
func TestVerifyMode(t *testing.T) {
	for _, tc := range []struct {
		name, call string
		want       testscan.Assertion
	}{
		{"default", "verify(repo).save(item);",
			testscan.Assertion{Kind: "verify", Strength: testscan.Strong, Subject: "repo", Expected: "save(item)"}},
		{"times(1) is the default", "verify(repo, times(1)).save(item);",
			testscan.Assertion{Kind: "verify", Strength: testscan.Strong, Subject: "repo", Expected: "save(item)"}},
		{"times(2)", "verify(repo, Mockito.times(2)).save(item);",
			testscan.Assertion{Kind: "verify", Strength: testscan.Strong, Subject: "repo", Expected: "save(item), times(2)"}},
		{"never", "verify(repo, never()).save(item);",
			testscan.Assertion{Kind: "verify", Strength: testscan.Medium, Negated: true, Subject: "repo", Expected: "save(item)"}},
		{"times(0) is never", "verify(repo, times(0)).save(item);",
			testscan.Assertion{Kind: "verify", Strength: testscan.Medium, Negated: true, Subject: "repo", Expected: "save(item)"}},
		{"atMost(0) is never", "Mockito.verify(repo, Mockito.atMost(0)).save(item);",
			testscan.Assertion{Kind: "verify", Strength: testscan.Medium, Negated: true, Subject: "repo", Expected: "save(item)"}},
		{"atLeast(0) checks nothing", "verify(repo, atLeast(0)).save(item);",
			testscan.Assertion{Kind: "verify", Strength: testscan.Trivial, Subject: "repo", Expected: "save(item), atLeast(0)"}},
		{"atLeastOnce", "verify(repo, atLeastOnce()).save(item);",
			testscan.Assertion{Kind: "verify", Strength: testscan.Medium, Subject: "repo", Expected: "save(item), atLeastOnce()"}},
		{"static times(1)", "mocked.verify(() -> Cleaner.clean(any(ByteBuffer.class)), Mockito.times(1));",
			testscan.Assertion{Kind: "verify", Strength: testscan.Strong, Subject: "mocked", Expected: "Cleaner.clean(any(ByteBuffer.class))"}},
		{"static never", "mocked.verify(() -> Cleaner.sunClean(any(ByteBuffer.class)), never());",
			testscan.Assertion{Kind: "verify", Strength: testscan.Medium, Negated: true, Subject: "mocked", Expected: "Cleaner.sunClean(any(ByteBuffer.class))"}},
		{"static atLeast(0)", "mocked.verify(() -> Cleaner.clean(x), atLeast(0));",
			testscan.Assertion{Kind: "verify", Strength: testscan.Trivial, Subject: "mocked", Expected: "Cleaner.clean(x), atLeast(0)"}},
		{"static method reference", "mocked.verify(Cleaner::release);",
			testscan.Assertion{Kind: "verify", Strength: testscan.Strong, Subject: "mocked", Expected: "Cleaner.release()"}},
		{"static qualified method reference times(2)", "mocked.verify(org.x.Cleaner::release, times(2));",
			testscan.Assertion{Kind: "verify", Strength: testscan.Strong, Subject: "mocked", Expected: "org.x.Cleaner.release(), times(2)"}},
		{"static method reference atLeast(0)", "mocked.verify(Cleaner::release, atLeast(0));",
			testscan.Assertion{Kind: "verify", Strength: testscan.Trivial, Subject: "mocked", Expected: "Cleaner.release(), atLeast(0)"}},
		{"static block lambda reads as its statement", "mocked.verify(() -> { Cleaner.clean(x); }, times(1));",
			testscan.Assertion{Kind: "verify", Strength: testscan.Strong, Subject: "mocked", Expected: "Cleaner.clean(x)"}},
		{"static lambda calling nothing checks nothing", "mocked.verify(() -> {}, times(1));",
			testscan.Assertion{Kind: "verify", Strength: testscan.Trivial, Subject: "mocked"}},
		{"static lambda calling nothing, never()", "mocked.verify(() -> { }, never());",
			testscan.Assertion{Kind: "verify", Strength: testscan.Trivial, Subject: "mocked"}},
		{"static no interactions", "mocked.verifyNoInteractions();",
			testscan.Assertion{Kind: "verifyNoInteractions", Strength: testscan.Medium, Subject: "mocked"}},
		{"static no more interactions", "mocked.verifyNoMoreInteractions();",
			testscan.Assertion{Kind: "verifyNoMoreInteractions", Strength: testscan.Medium, Subject: "mocked"}},
		{"BDD should", "then(repo).should().save(item);",
			testscan.Assertion{Kind: "verify", Strength: testscan.Strong, Subject: "repo", Expected: "save(item)"}},
		{"BDD should times(2)", "BDDMockito.then(repo).should(times(2)).save(item);",
			testscan.Assertion{Kind: "verify", Strength: testscan.Strong, Subject: "repo", Expected: "save(item), times(2)"}},
		{"BDD should never", "then(repo).should(Mockito.never()).save(item);",
			testscan.Assertion{Kind: "verify", Strength: testscan.Medium, Negated: true, Subject: "repo", Expected: "save(item)"}},
		{"BDD no more interactions", "then(repo).shouldHaveNoMoreInteractions();",
			testscan.Assertion{Kind: "verifyNoMoreInteractions", Strength: testscan.Medium, Subject: "repo"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "class ATest {\n    @Test void a() {\n        " + tc.call + "\n    }\n}\n"
			f, err := New().Extract("src/test/java/ATest.java", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Tests) != 1 || len(f.Tests[0].Assertions) != 1 {
				t.Fatalf("want one test with one check, got %+v", f.Tests)
			}
			got := f.Tests[0].Assertions[0]
			got.Line = 0
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("check (-want +got):\n%s", d)
			}
		})
	}
}

// TestMethodValueIsNoVerification: a value's own verify(x) or
// verifyNoInteractions(x) with arguments that are no MockedStatic
// verification is no check (signature.verify(key) is production code).
func TestMethodValueIsNoVerification(t *testing.T) {
	for _, call := range []string{
		"signature.verify(key);",
		"signature.verify(() -> key);",
		"service.verifyNoInteractions(other);",
		"mocked.verify(Cleaner::release).then(x);",
		"assertTrue(mocked.verify(() -> check(x)));",
	} {
		src := "class ATest {\n    @Test void a() {\n        " + call + "\n    }\n}\n"
		f, err := New().Extract("src/test/java/ATest.java", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range f.Tests[0].Assertions {
			if strings.HasPrefix(x.Kind, "verify") && x.Strength > testscan.Trivial {
				t.Errorf("%s read as %+v", call, x)
			}
		}
	}
}

// TestThenWithoutShouldIsNoVerification: AssertJ's BDD then(actual) chain
// is not a Mockito verification but assertThat(actual) spelled the BDD
// way, and its thenThrownBy is assertThatThrownBy.
func TestThenWithoutShouldIsNoVerification(t *testing.T) {
	src := "class ATest {\n    @Test void a() {\n        then(result).as(\"sum\").isEqualTo(3);\n        thenThrownBy(() -> parse(\"x\")).isInstanceOf(IllegalArgumentException.class);\n    }\n}\n"
	f, err := New().Extract("src/test/java/ATest.java", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range f.Tests[0].Assertions {
		got = append(got, x.Kind+" "+x.Strength.String()+" "+x.Subject+" "+x.Expected)
	}
	want := []string{
		"isEqualTo strong result 3",
		"thenThrownBy medium ()->parse(\"x\") ",
		"isInstanceOf medium ()->parse(\"x\") IllegalArgumentException.class",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("checks (-want +got):\n%s", d)
	}
}
