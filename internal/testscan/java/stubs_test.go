package java

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// TestStubbedChecks: a check of a call the test stubbed before it compares
// the stub's answer (its operand becomes the answer) and cannot fail;
// checks of other calls, verifications, checks made before the stub and
// stubs that return nothing (thenThrow, thenCallRealMethod) are left alone.
func TestStubbedChecks(t *testing.T) {
	type check struct {
		Kind     string
		Strength testscan.Strength
		Subject  string
		Expected string
	}
	for _, tc := range []struct {
		name string
		body string
		want []check
	}{
		{"when thenReturn", "when(repo.find(1)).thenReturn(user);\n assertEquals(user, repo.find(1));",
			[]check{{"assertEquals", testscan.Trivial, "user", "user"}}},
		{"through a local", "when(repo.find(1)).thenReturn(user);\n final User u = repo.find(1);\n assertEquals(user, u);",
			[]check{{"assertEquals", testscan.Trivial, "user", "user"}}},
		{"a local set before the stub", "final User u = repo.find(1);\n when(repo.find(1)).thenReturn(user);\n assertEquals(user, u);",
			[]check{{"assertEquals", testscan.Strong, "u", "user"}}},
		{"another call", "when(repo.find(1)).thenReturn(user);\n assertEquals(user, service.load(1));",
			[]check{{"assertEquals", testscan.Strong, "service.load(1)", "user"}}},
		{"MockedStatic", "try (MockedStatic<Checksum> m = mockStatic(Checksum.class)) {\n m.when(() -> Checksum.of(data)).thenReturn(5L);\n assertThat(Checksum.of(data)).isEqualTo(5L);\n }",
			[]check{{"isEqualTo", testscan.Trivial, "5L", "5L"}}},
		{"MockedStatic method reference", "m.when(Clock::millis).thenReturn(5L);\n assertEquals(5L, Clock.millis());",
			[]check{{"assertEquals", testscan.Trivial, "5L", "5L"}}},
		{"matcher arguments stub every call", "when(repo.find(anyInt())).thenReturn(user);\n assertSame(user, repo.find(7));",
			[]check{{"assertSame", testscan.Trivial, "user", "user"}}},
		{"matchers: a longer chain is another value", "when(repo.find(anyInt())).thenReturn(user);\n assertEquals(\"a\", repo.find(7).name());",
			[]check{{"assertEquals", testscan.Strong, "repo.find(7).name()", `"a"`}}},
		{"doReturn", "doReturn(3).when(calc).add(1, 2);\n assertEquals(3, calc.add(1, 2));",
			[]check{{"assertEquals", testscan.Trivial, "3", "3"}}},
		{"BDD given willReturn", "given(repo.find(1)).willReturn(user);\n then(repo.find(1)).isEqualTo(user);\n assertEquals(user, repo.find(1));",
			[]check{{"isEqualTo", testscan.Trivial, "user", "user"}, {"assertEquals", testscan.Trivial, "user", "user"}}},
		{"BDD willReturn given", "willReturn(3).given(calc).add(1, 2);\n assertEquals(3, calc.add(1, 2));",
			[]check{{"assertEquals", testscan.Trivial, "3", "3"}}},
		{"doThrow stubs no value", "doThrow(new IllegalStateException()).when(calc).add(1, 2);\n assertThrows(IllegalStateException.class, () -> calc.add(1, 2));",
			[]check{{"assertThrows", testscan.Medium, "()->calc.add(1,2)", "IllegalStateException.class"}}},
		{"thenCallRealMethod", "when(calc.add(1, 2)).thenCallRealMethod();\n assertEquals(3, calc.add(1, 2));",
			[]check{{"assertEquals", testscan.Strong, "calc.add(1,2)", "3"}}},
		{"check before the stub", "assertEquals(3, calc.add(1, 2));\n when(calc.add(1, 2)).thenReturn(4);",
			[]check{{"assertEquals", testscan.Strong, "calc.add(1,2)", "3"}}},
		{"verification of the stubbed call", "when(repo.find(1)).thenReturn(user);\n service.load(1);\n verify(repo).find(1);",
			[]check{{"verify", testscan.Strong, "repo", "find(1)"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "class ATest {\n    @Test void a() {\n " + tc.body + "\n    }\n}\n"
			f, err := New().Extract("src/test/java/ATest.java", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			var got []check
			for _, x := range f.Tests[0].Assertions {
				got = append(got, check{x.Kind, x.Strength, x.Subject, x.Expected})
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("checks (-want +got):\n%s", d)
			}
		})
	}
}
