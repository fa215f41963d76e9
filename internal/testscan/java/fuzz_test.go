package java

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testscan/scantest"
)

// generatedSuite returns a realistic JUnit 5 test class of about n tests.
func generatedSuite(n int) string {
	var b strings.Builder
	b.WriteString("package com.acme;\n\nimport org.junit.jupiter.api.*;\nimport static org.junit.jupiter.api.Assertions.*;\n\n")
	b.WriteString("@SuppressWarnings(\"unchecked\")\npublic class GeneratedTest {\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `    /** Checks case %[1]d. */
    @Test
    @DisplayName("case %[1]d")
    void case%[1]d() throws Exception {
        var svc = new Service("name-%[1]d", %[1]d);
        String text = """
            {"id": %[1]d}
            """;
        if (svc.mode() == 3) { return; }
        assertEquals(%[1]d, svc.compute(text), "compute %[1]d");
        assertThat(svc.items()).hasSize(%[1]d).contains("x");
        assertThrows(IllegalStateException.class, () -> svc.fail('c'));
        try { svc.close(); } catch (IOException e) { /* ignore */ }
    }

    @Nested
    class Group%[1]d {
        @ParameterizedTest
        @ValueSource(ints = {1, 2, %[1]d})
        void nested(int x) { assertTrue(x > 0); }
    }

`, i)
	}
	b.WriteString("}\n")
	return b.String()
}

func BenchmarkExtract(b *testing.B) {
	src := []byte(generatedSuite(1200))
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := New().Extract("GeneratedTest.java", src); err != nil {
			b.Fatal(err)
		}
	}
}

// TestExtractLargeFile checks a ~1 MB file completely (speed is BenchmarkExtract's job).
func TestExtractLargeFile(t *testing.T) {
	src := []byte(generatedSuite(1700))
	if len(src) < 1<<20 {
		t.Fatalf("generated %d bytes, want at least 1 MiB", len(src))
	}
	f, err := New().Extract("GeneratedTest.java", src)
	if err != nil {
		t.Fatal(err)
	}
	// Each group's parameterized test has three @ValueSource rows.
	if len(f.Tests) != 6800 {
		t.Errorf("got %d tests, want 6800", len(f.Tests))
	}
}

func FuzzExtract(f *testing.F) {
	f.Add(fingerprintBase)
	f.Add("class A { @Test void t() { Runnable check = () -> { assertTrue(s.startsWith(\"x\")); }; Consumer<String> c = v -> { assertEquals(v, \"y\"); }; if (true) return; assertTrue(x); if (true) { return; } } }")
	f.Add(serviceSrc)
	f.Add(generatedSuite(2))
	f.Add("@Test void x() { assertEquals(1, 2); }\n}\n}")
	f.Add("class A { @Test void t() { String s = \"\"\"\n unterminated")
	f.Add("class A { /* unterminated comment @Test void t() {}")
	f.Add("@Disabled class B extends TestCase { public void testA() { assertThat(x).isEqualTo(y)")
	f.Add("switch (x) { case 'a' -> 1; case \"b\", -3: }")
	f.Add(")]}{[( @ @interface record enum class")
	f.Add("class OrderTest {\n  @BeforeEach void setUp() { assertNotNull(repo); }\n  private void assertValid(Order o) { assertEquals(\"OPEN\", o.status()); assertThat(o.items()).isNotEmpty(); }\n  @Test void a() { assertValid(make()); }\n  @Test void b() { assertValid(other()); }\n}\n")
	f.Add("@Test public class CartTest { @BeforeMethod public void init() { assertEquals(cart.size(), 0); } private void v() { assertTrue(x)")
	f.Add("class CallTest {\n  @Test void a() { this.h(x.m()); h(\"h()\"); assertThat(q()).isEqualTo(1).as(r()); verify(m).save(new Foo(Math.max(1, 2))); when(m.f()).thenReturn(1); }\n  void h(int x) { g(); }\n  void h() { g(); }\n}\n")
	f.Add("class StubTest {\n  @Test void a() { try (MockedStatic<C> m = mockStatic(C.class)) { m.when(() -> C.of(any())).thenReturn(5L); m.when(C::now).thenAnswer(i -> 1); doReturn(3).when(calc).add(1, 2); doReturn(when(x).y(.when()); assertEquals(5L, C.of(d)); m.verify(C::now, times(1)); m.verify(() -> {}); m.verifyNoInteractions(); assertWithMessage(\"m\", a).that(x).isEqualTo(1); assert_().that(y); } }\n}\n")
	f.Add("// TODO: x\nclass A { void f() { throw new java.lang.UnsupportedOperationException(\"TODO\" + x); } /** FIXME */ void g() { throw new E(\"\"\"\n stub\"\"\"); throw new UnsupportedOperationException(\"remove\"); throw new X(")
	f.Add(funcsSrc)
	f.Add("class A { Object f() { if (x == 1) return 2; switch (y) { case 3: case -4 -> { yield 'c'; } } return x -> { return null; }; } }")
	f.Add("class A extends B { @Test void t() throws Exception { Runnable r = () -> { assertTrue(x); }; new Thread(r).start(); new Thread() { public void run() { assertEquals(1, f()); } }.start(); pool.submit(() -> check(x)).get(); CompletableFuture.runAsync(() -> f()); } private static void check(int x) {} void f() {} }")
	f.Fuzz(func(t *testing.T, src string) {
		New().References("FuzzTest.java", []byte(src), map[string]bool{"check": true, "f": true})
		file, err := New().Extract("FuzzTest.java", []byte(src))
		if err != nil {
			t.Fatalf("Extract: %v", err)
		}
		scantest.CheckPlaceholders(t, src, file.Placeholders)
		scantest.CheckTests(t, file.Tests)
		for _, tc := range file.Tests {
			if len(tc.Literals) > maxLiterals {
				t.Errorf("test %q has %d literals", tc.ID, len(tc.Literals))
			}
		}
		scantest.CheckHelperAssertions(t, file.HelperAssertions)
		scantest.CheckCalls(t, file)
		prod, err := New().Extract("src/main/java/Fuzz.java", []byte(src))
		if err != nil {
			t.Fatalf("Extract: %v", err)
		}
		scantest.CheckFuncs(t, src, prod.Funcs)
		scantest.CheckFuncNames(t, prod)
		scantest.CheckPlaceholders(t, src, prod.Placeholders)
	})
}
