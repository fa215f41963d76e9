package java

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// TestAssertWithMessage reads Truth's assertWithMessage(m).that(x).matcher(y)
// (and assert_().that(x), assertAbout(f).that(x)) as assertThat(x).matcher(y): the message (or a format and its values) is
// no subject, the matchers after that(x) are the checks, and a chain
// without a matcher checks nothing.
func TestAssertWithMessage(t *testing.T) {
	type check struct {
		Kind     string
		Strength testscan.Strength
		Negated  bool
		Subject  string
		Expected string
	}
	for _, tc := range []struct {
		name, call string
		want       []check
	}{
		{"equal", `assertWithMessage("size").that(list.size()).isEqualTo(3);`,
			[]check{{"isEqualTo", testscan.Strong, false, "list.size()", "3"}}},
		{"format and values", `assertWithMessage("%s of %s", a, b).that(x).isNotNull();`,
			[]check{{"isNotNull", testscan.Weak, false, "x", ""}}},
		{"negated", `Truth.assertWithMessage("no dep").that(pkg).doesNotContain("annotations");`,
			[]check{{"doesNotContain", testscan.Medium, true, "pkg", `"annotations"`}}},
		{"two matchers", `assertWithMessage("m").that(s).startsWith("a").endsWith("z");`,
			[]check{{"startsWith", testscan.Medium, false, "s", `"a"`}, {"endsWith", testscan.Medium, false, "s", `"z"`}}},
		{"about", `assertWithMessage("m").about(streams()).that(s).isEmpty();`,
			[]check{{"isEmpty", testscan.Medium, false, "s", ""}}},
		{"literal subject", `assertWithMessage("always").that(true).isTrue();`,
			[]check{{"isTrue", testscan.Trivial, false, "true", ""}}},
		{"assert_", `assert_().that(x).isEqualTo(3);`,
			[]check{{"isEqualTo", testscan.Strong, false, "x", "3"}}},
		{"assertAbout", `assertAbout(streams()).that(s).isEmpty();`,
			[]check{{"isEmpty", testscan.Medium, false, "s", ""}}},
		{"assert_ without that", `assert_().fail();`,
			[]check{{"fail", testscan.Medium, false, "", ""}}},
		{"no matcher", `assertWithMessage("m").that(x);`,
			[]check{{"assertWithMessage", testscan.Trivial, false, "x", ""}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "class ATest {\n    @Test void a() {\n        " + tc.call + "\n    }\n}\n"
			f, err := New().Extract("src/test/java/ATest.java", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			var got []check
			for _, x := range f.Tests[0].Assertions {
				got = append(got, check{x.Kind, x.Strength, x.Negated, x.Subject, x.Expected})
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("checks (-want +got):\n%s", d)
			}
		})
	}
}
