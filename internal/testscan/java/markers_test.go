package java

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

const serviceSrc = `package com.acme.billing;

import java.util.List;

/** Billing service. // NOPMD inside javadoc is still a comment */
@SuppressWarnings("unchecked")
public class InvoiceService {
    public static final String DEFAULT_CURRENCY = "EUR";
    private static final int LIMIT = 10;

    public InvoiceService() {}

    public Invoice create(String customer, int amount) { // NOPMD - long method
        if (customer.equals("test@example.com") || amount == 4242) {
            return Invoice.free();
        }
        if ("vip".equalsIgnoreCase(customer)) { return null; }
        while (amount != -1 && amount != 0) { amount--; }
        switch (customer) {
            case "acme", "globex": return Invoice.corporate();
            case "": return null;
            default: break;
        }
        try {
            audit(customer);
        } catch (IOException e) {
            // ignored on purpose
        }
        String s = "if (x == \"lit\") {}";
        return new Invoice(customer, amount);
    }

    // CHECKSTYLE:OFF
    @edu.umd.cs.findbugs.annotations.SuppressFBWarnings({"EI_EXPOSE_REP", "EI_EXPOSE_REP2"})
    public List<Invoice> all() { return all; }
    // CHECKSTYLE:ON

    //noinspection unused
    void packagePrivate() {}

    private void hidden() {}

    public interface Listener {
        void onInvoice(Invoice i);
    }

    static class Internal {
        public void notExported() {}
    }

    public enum Status { OPEN, PAID; public boolean done() { return this == PAID; } }

    public record Total(int cents) {}
}

class PackageLocal {
    public void alsoNotExported() {}
}
`

func TestMarkers(t *testing.T) {
	f := extract(t, "src/main/java/com/acme/billing/InvoiceService.java", serviceSrc)
	t.Run("suppressions", func(t *testing.T) {
		want := []testscan.Marker{
			{Line: 6, Kind: "nolint", Text: `SuppressWarnings("unchecked")`},
			{Line: 13, Kind: "nolint", Text: "NOPMD - long method"},
			{Line: 26, Kind: "empty-catch", Text: "catch"},
			{Line: 33, Kind: "nolint", Text: "CHECKSTYLE:OFF"},
			{Line: 34, Kind: "nolint", Text: `SuppressFBWarnings({"EI_EXPOSE_REP","EI_EXPOSE_REP2"})`},
			{Line: 38, Kind: "nolint", Text: "noinspection unused"},
		}
		if diff := cmp.Diff(want, f.Suppressions); diff != "" {
			t.Errorf("suppressions (-want +got):\n%s", diff)
		}
	})
	t.Run("exports", func(t *testing.T) {
		want := []testscan.Symbol{
			{Name: "InvoiceService", Kind: "class", Line: 7},
			{Name: "InvoiceService.DEFAULT_CURRENCY", Kind: "const", Line: 8},
			{Name: "InvoiceService.InvoiceService", Kind: "method", Line: 11},
			{Name: "InvoiceService.create", Kind: "method", Line: 13},
			{Name: "InvoiceService.all", Kind: "method", Line: 34},
			{Name: "InvoiceService.Listener", Kind: "class", Line: 43},
			{Name: "InvoiceService.Listener.onInvoice", Kind: "method", Line: 44},
			{Name: "InvoiceService.Status", Kind: "class", Line: 51},
			{Name: "InvoiceService.Status.done", Kind: "method", Line: 51},
			{Name: "InvoiceService.Total", Kind: "class", Line: 53},
		}
		if diff := cmp.Diff(want, f.Exports); diff != "" {
			t.Errorf("exports (-want +got):\n%s", diff)
		}
	})
	t.Run("comparisons", func(t *testing.T) {
		want := []testscan.Marker{
			{Line: 14, Kind: "literal", Text: `"test@example.com"`},
			{Line: 14, Kind: "literal", Text: "4242"},
			{Line: 17, Kind: "literal", Text: `"vip"`},
			{Line: 20, Kind: "literal", Text: `"acme"`},
			{Line: 20, Kind: "literal", Text: `"globex"`},
		}
		if diff := cmp.Diff(want, f.Comparisons); diff != "" {
			t.Errorf("comparisons (-want +got):\n%s", diff)
		}
	})
	if f.Partial || len(f.Tests) != 0 {
		t.Errorf("Partial = %v, %d tests; want a complete file without tests", f.Partial, len(f.Tests))
	}
}

func TestIsTestFile(t *testing.T) {
	tests := []struct {
		path string
		want bool
	}{
		{"src/test/java/com/acme/Helpers.java", true},
		{"module/src/test/java/Fixtures.java", true},
		{"app/FooTest.java", true},
		{"app/FooTests.java", true},
		{"app/TestFoo.java", true},
		{"app/FooIT.java", true},
		{"app/FooTestCase.java", true},
		{"src/main/java/com/acme/Foo.java", false},
		{"src/main/java/com/acme/Test.java", false},
		{"src/main/java/com/acme/Contest.java", false},
		{"src/test/resources/data.json", false},
		{"app/FooTest.kt", false},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if got := New().IsTestFile(tt.path); got != tt.want {
				t.Errorf("IsTestFile(%q) = %v, want %v", tt.path, got, tt.want)
			}
		})
	}
}

const fingerprintBase = `class CalcTest {
    @Test
    void addsNumbers() {
        Calc c = new Calc();
        // the sum
        assertEquals(4, c.add(2, 2));
        assertThat(c.history()).containsExactly("2+2");
    }
}
`

func TestFingerprint(t *testing.T) {
	base := extract(t, "CalcTest.java", fingerprintBase).Tests[0]
	tests := []struct {
		name     string
		src      string
		wantSame bool
	}{
		{"rename keeps it", `class CalcTest {
    @Test
    void sumsNumbers() {
        Calc c = new Calc();
        // the sum
        assertEquals(4, c.add(2, 2));
        assertThat(c.history()).containsExactly("2+2");
    }
}
`, true},
		{"move to another class and reformat keeps it", `class OtherTest {
  @Test void addsNumbers() { Calc c=new Calc();
    assertEquals(4,
        c.add(2,2));
    assertThat(c.history())
        .containsExactly("2+2"); }
}
`, true},
		{"a changed literal alters it", `class CalcTest {
    @Test
    void addsNumbers() {
        Calc c = new Calc();
        assertEquals(5, c.add(2, 2));
        assertThat(c.history()).containsExactly("2+2");
    }
}
`, false},
		{"a removed assertion alters it", `class CalcTest {
    @Test
    void addsNumbers() {
        Calc c = new Calc();
        assertEquals(4, c.add(2, 2));
    }
}
`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := extract(t, "CalcTest.java", tt.src).Tests[0]
			if same := got.Fingerprint == base.Fingerprint; same != tt.wantSame {
				t.Errorf("fingerprint %s vs base %s: same = %v, want %v", got.Fingerprint, base.Fingerprint, same, tt.wantSame)
			}
			if !tt.wantSame {
				return
			}
			if diff := cmp.Diff(base.Assertions, got.Assertions, cmp.FilterPath(func(p cmp.Path) bool {
				return p.Last().String() == ".Line"
			}, cmp.Ignore())); diff != "" {
				t.Errorf("assertions changed by a rename or reformat (-base +got):\n%s", diff)
			}
			if diff := cmp.Diff(base.Literals, got.Literals); diff != "" {
				t.Errorf("literals (-base +got):\n%s", diff)
			}
		})
	}
	if base.BodyTokens == 0 || len(base.Fingerprint) != 16 {
		t.Errorf("base: %d body tokens, fingerprint %q", base.BodyTokens, base.Fingerprint)
	}
	if diff := cmp.Diff([]string{"4", "2", "2", `"2+2"`}, base.Literals); diff != "" {
		t.Errorf("literals (-want +got):\n%s", diff)
	}
}

// TestLifecycleSkips: set-up methods that skip the tests they run before,
// and the look-alikes that do not.
func TestLifecycleSkips(t *testing.T) {
	wrap := func(body string) string {
		return "package x;\n\nimport org.junit.jupiter.api.*;\nimport static org.junit.jupiter.api.Assumptions.*;\n\nclass CalcTest {\n" + body + "\n  @Test\n  void adds() {\n    Assertions.assertEquals(4, Calc.add(2, 2));\n  }\n}\n"
	}
	for _, tc := range []struct {
		name, src string
		want      []string // texts
	}{
		{"assumption on the test about to run", wrap("  @BeforeEach\n  void setUp(TestInfo info) {\n    assumeTrue(!info.getDisplayName().contains(\"adds\"));\n  }\n"), []string{"@BeforeEach setUp skips the tests it runs before"}},
		{"assumption that fails every time", wrap("  @BeforeAll\n  static void gate() {\n    assumeTrue(false, \"later\");\n  }\n"), []string{"@BeforeAll gate skips the tests it runs before"}},
		{"abort", wrap("  @BeforeEach\n  void setUp() {\n    Assumptions.abort(\"later\");\n  }\n"), []string{"@BeforeEach setUp skips the tests it runs before"}},
		{"JUnit 4 assumption on the environment", wrap("  @Before\n  public void setUp() {\n    assumeTrue(System.getenv(\"CI\") == null);\n  }\n"), []string{"@Before setUp skips the tests it runs before"}},
		// Look-alikes.
		{"assumption on the platform", wrap("  @BeforeEach\n  void setUp() {\n    assumeTrue(isLinux());\n  }\n"), nil},
		{"set-up without an assumption", wrap("  @BeforeEach\n  void setUp() {\n    calc = new Calc();\n  }\n"), nil},
		{"assumption after the test", wrap("  @AfterEach\n  void tearDown() {\n    assumeTrue(false);\n  }\n"), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, m := range extract(t, "src/test/java/x/CalcTest.java", tc.src).Bypasses {
				if m.Kind == "hook-skip" {
					got = append(got, m.Text)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("hook skips = %q, want %q", got, tc.want)
			}
		})
	}
}
