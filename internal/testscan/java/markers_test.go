package java

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scantest"
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
	scantest.CheckProductionFile(t, f, scantest.Facts{
		Suppressions: []testscan.Marker{
			{Line: 6, Kind: "nolint", Text: `SuppressWarnings("unchecked")`},
			{Line: 13, Kind: "nolint", Text: "NOPMD - long method"},
			{Line: 26, Kind: "empty-catch", Text: "catch"},
			{Line: 33, Kind: "nolint", Text: "CHECKSTYLE:OFF"},
			{Line: 34, Kind: "nolint", Text: `SuppressFBWarnings({"EI_EXPOSE_REP","EI_EXPOSE_REP2"})`},
			{Line: 38, Kind: "nolint", Text: "noinspection unused"},
		},
		Exports: []testscan.Symbol{
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
		},
		Comparisons: []testscan.Marker{
			{Line: 14, Kind: "literal", Text: `"test@example.com"`},
			{Line: 14, Kind: "literal", Text: "4242"},
			{Line: 17, Kind: "literal", Text: `"vip"`},
			{Line: 20, Kind: "literal", Text: `"acme"`},
			{Line: 20, Kind: "literal", Text: `"globex"`},
		},
	})
}

func TestIsTestFile(t *testing.T) {
	scantest.RunIsTestFile(t, New(), map[string]bool{
		"src/test/java/com/acme/Helpers.java": true,
		"module/src/test/java/Fixtures.java":  true,
		"app/FooTest.java":                    true,
		"app/FooTests.java":                   true,
		"app/TestFoo.java":                    true,
		"app/FooIT.java":                      true,
		"app/FooTestCase.java":                true,
		"src/main/java/com/acme/Foo.java":     false,
		"src/main/java/com/acme/Test.java":    false,
		"src/main/java/com/acme/Contest.java": false,
		"src/test/resources/data.json":        false,
		"app/FooTest.kt":                      false,
	})
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
	base := scantest.RunFingerprints(t, New(), "CalcTest.java", fingerprintBase, []scantest.FingerprintCase{
		{Name: "rename keeps it", Src: `class CalcTest {
    @Test
    void sumsNumbers() {
        Calc c = new Calc();
        // the sum
        assertEquals(4, c.add(2, 2));
        assertThat(c.history()).containsExactly("2+2");
    }
}
`, WantSame: true},
		{Name: "move to another class and reformat keeps it", Src: `class OtherTest {
  @Test void addsNumbers() { Calc c=new Calc();
    assertEquals(4,
        c.add(2,2));
    assertThat(c.history())
        .containsExactly("2+2"); }
}
`, WantSame: true},
		{Name: "a changed literal alters it", Src: `class CalcTest {
    @Test
    void addsNumbers() {
        Calc c = new Calc();
        assertEquals(5, c.add(2, 2));
        assertThat(c.history()).containsExactly("2+2");
    }
}
`, WantSame: false},
		{Name: "a removed assertion alters it", Src: `class CalcTest {
    @Test
    void addsNumbers() {
        Calc c = new Calc();
        assertEquals(4, c.add(2, 2));
    }
}
`, WantSame: false},
	}, func(t *testing.T, base, got testscan.TestCase) {
		if diff := cmp.Diff(base.Literals, got.Literals); diff != "" {
			t.Errorf("literals (-base +got):\n%s", diff)
		}
	})
	if base.BodyTokens == 0 || len(base.Fingerprint) != 16 {
		t.Errorf("base: %d body tokens, fingerprint %q", base.BodyTokens, base.Fingerprint)
	}
	if diff := cmp.Diff([]string{"4", "2", "2", `"2+2"`}, base.Literals); diff != "" {
		t.Errorf("literals (-want +got):\n%s", diff)
	}
}
