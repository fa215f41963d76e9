package java

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// ignoreBodyHashes leaves fingerprints, literals and calls to their own tests.
var ignoreBodyHashes = cmpopts.IgnoreFields(testscan.TestCase{}, "Fingerprint", "BodyTokens", "Literals", "Calls")

func extract(t *testing.T, path, src string) *testscan.File {
	t.Helper()
	f, err := New().Extract(path, []byte(src))
	if err != nil {
		t.Fatalf("Extract(%s): %v", path, err)
	}
	return f
}

func TestExtractTests(t *testing.T) {
	tests := []struct {
		name        string
		path        string
		src         string
		want        []testscan.TestCase
		wantPartial bool
	}{
		{
			name: "junit5 with nested, disabled, assumptions and AssertJ",
			path: "src/test/java/com/acme/ParserTest.java",
			src: `package com.acme;

import org.junit.jupiter.api.*;
import static org.junit.jupiter.api.Assertions.*;
import static org.assertj.core.api.Assertions.assertThat;

class ParserTest {
    @Test
    void parsesEmpty() {
        assertEquals(0, Parser.parse("").size());
        assertEquals(1.5, Parser.ratio(), 0.01);
        // assertEquals(2, Parser.count());
        assertThat(items).hasSize(3).containsExactly("a", "b", "c");
        assertThat(name).as("the name").isNotNull();
    }

    @Test
    @Disabled("flaky on CI")
    void disabledTest() {
        assertTrue(true);
    }

    @Nested
    @DisplayName("when broken")
    class WhenBroken {
        @ParameterizedTest
        @ValueSource(strings = {"a", "b"})
        void rejects(String in) {
            Assumptions.assumeTrue(in != null, "needs input");
            assertThrows(ParseException.class, () -> Parser.parse(in));
        }
    }

    @Test
    void guarded() {
        if (System.getenv("CI") != null) {
            return;
        }
        Assertions.assertNotEquals("x", Parser.name());
        assertAll(
            () -> assertNull(Parser.last()),
            () -> assertFalse(Parser.done(), "not done"));
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void linuxOnly() { assertThat(Parser.sep()).isEqualTo('/'); }

    @RepeatedTest(3)
    void repeated() { assertThat(1).isEqualTo(1); }
}
`,
			want: []testscan.TestCase{
				{ID: "ParserTest.parsesEmpty", Name: "parsesEmpty", Line: 8, EndLine: 15, CommentedAssertions: 1, Assertions: []testscan.Assertion{
					{Line: 10, Kind: "assertEquals", Strength: testscan.Strong, Subject: `Parser.parse("").size()`, Expected: "0"},
					{Line: 11, Kind: "assertEquals", Strength: testscan.Strong, Subject: "Parser.ratio()", Expected: "1.5", Tolerance: "0.01"},
					{Line: 13, Kind: "hasSize", Strength: testscan.Medium, Subject: "items", Expected: "3"},
					{Line: 13, Kind: "containsExactly", Strength: testscan.Strong, Subject: "items", Expected: `"a","b","c"`},
					{Line: 14, Kind: "isNotNull", Strength: testscan.Weak, Subject: "name"},
				}},
				{ID: "ParserTest.disabledTest", Name: "disabledTest", Line: 17, EndLine: 21,
					Skip:       &testscan.Skip{Kind: testscan.SkipMarked, Reason: "flaky on CI", Line: 18},
					Assertions: []testscan.Assertion{{Line: 20, Kind: "assertTrue", Strength: testscan.Trivial, Subject: "true"}}},
				// One case per @ValueSource row.
				{ID: "ParserTest.WhenBroken.rejects[1]", Name: "rejects", Line: 26, EndLine: 31,
					Skip:       &testscan.Skip{Kind: testscan.SkipConditional, Reason: "needs input", Line: 29},
					Assertions: []testscan.Assertion{{Line: 30, Kind: "assertThrows", Strength: testscan.Medium, Subject: "()->Parser.parse(in)", Expected: "ParseException.class"}}},
				{ID: "ParserTest.WhenBroken.rejects[2]", Name: "rejects", Line: 26, EndLine: 31,
					Skip:       &testscan.Skip{Kind: testscan.SkipConditional, Reason: "needs input", Line: 29},
					Assertions: []testscan.Assertion{{Line: 30, Kind: "assertThrows", Strength: testscan.Medium, Subject: "()->Parser.parse(in)", Expected: "ParseException.class"}}},
				{ID: "ParserTest.guarded", Name: "guarded", Line: 34, EndLine: 43,
					Skip: &testscan.Skip{Kind: testscan.SkipEarlyReturn, Line: 37},
					Assertions: []testscan.Assertion{
						{Line: 39, Kind: "assertNotEquals", Strength: testscan.Medium, Negated: true, Subject: "Parser.name()", Expected: `"x"`},
						{Line: 41, Kind: "assertNull", Strength: testscan.Medium, Subject: "Parser.last()"},
						{Line: 42, Kind: "assertFalse", Strength: testscan.Medium, Negated: true, Subject: "Parser.done()"},
					}},
				{ID: "ParserTest.linuxOnly", Name: "linuxOnly", Line: 45, EndLine: 47,
					Skip:       &testscan.Skip{Kind: testscan.SkipConditional, Line: 46},
					Assertions: []testscan.Assertion{{Line: 47, Kind: "isEqualTo", Strength: testscan.Strong, Subject: "Parser.sep()", Expected: "'/'"}}},
				{ID: "ParserTest.repeated", Name: "repeated", Line: 49, EndLine: 50,
					Assertions: []testscan.Assertion{{Line: 50, Kind: "isEqualTo", Strength: testscan.Trivial, Subject: "1", Expected: "1"}}},
			},
		},
		{
			name: "junit4 with Hamcrest, class-level @Ignore is not set, expected exceptions",
			path: "src/test/java/LegacyTest.java",
			src: `import org.junit.Test;
import static org.junit.Assert.*;
import static org.hamcrest.Matchers.*;

public class LegacyTest {
    @Test(expected = IllegalStateException.class)
    public void throwsWhenClosed() {
        conn.close();
        conn.send("x");
    }

    @Test
    public void hamcrest() {
        assertThat(result, is(42));
        assertThat("reason", list, hasItem("a"));
        assertThat(name, is(not(equalTo("bob"))));
        assertThat(value, notNullValue());
        assertThat(ratio, closeTo(0.5, 0.001));
        assertEquals("sizes differ", 3, list.size());
        org.junit.Assert.assertArrayEquals(new int[] {1, 2}, arr);
    }

    @Ignore("waiting for #123")
    @Test
    public void ignored() { fail("not yet"); }
}
`,
			want: []testscan.TestCase{
				{ID: "LegacyTest.throwsWhenClosed", Name: "throwsWhenClosed", Line: 6, EndLine: 10,
					Assertions: []testscan.Assertion{{Line: 6, Kind: "Test(expected)", Strength: testscan.Medium, Expected: "IllegalStateException.class"}}},
				{ID: "LegacyTest.hamcrest", Name: "hamcrest", Line: 12, EndLine: 21, Assertions: []testscan.Assertion{
					{Line: 14, Kind: "assertThat.is", Strength: testscan.Strong, Subject: "result", Expected: "42"},
					{Line: 15, Kind: "assertThat.hasItem", Strength: testscan.Medium, Subject: "list", Expected: `"a"`},
					{Line: 16, Kind: "assertThat.is", Strength: testscan.Medium, Negated: true, Subject: "name", Expected: `"bob"`},
					{Line: 17, Kind: "assertThat.notNullValue", Strength: testscan.Weak, Subject: "value"},
					{Line: 18, Kind: "assertThat.closeTo", Strength: testscan.Strong, Subject: "ratio", Expected: "0.5", Tolerance: "0.001"},
					{Line: 19, Kind: "assertEquals", Strength: testscan.Strong, Subject: "list.size()", Expected: "3"},
					{Line: 20, Kind: "assertArrayEquals", Strength: testscan.Strong, Subject: "arr", Expected: "new int[]{1,2}"},
				}},
				{ID: "LegacyTest.ignored", Name: "ignored", Line: 23, EndLine: 25,
					Skip:       &testscan.Skip{Kind: testscan.SkipMarked, Reason: "waiting for #123", Line: 23},
					Assertions: []testscan.Assertion{{Line: 25, Kind: "fail", Strength: testscan.Medium}}},
			},
		},
		{
			name: "junit3 TestCase subclass and a disabled class",
			path: "test/AccountTest.java",
			src: `import junit.framework.TestCase;

public class AccountTest extends TestCase {
    public void testDeposit() {
        Account a = new Account();
        a.deposit(10);
        assertEquals(10, a.balance());
    }

    public void helperNotATest(int x) {}
    private void testPrivate() {}
    public void testWithArgs(int x) {}
}

@Disabled
class SlowTest {
    @Test void one() { verify(repo).save(item); }
    @Test void two() { verify(repo, never()).delete(any()); verifyNoMoreInteractions(repo); }
}
`,
			want: []testscan.TestCase{
				{ID: "AccountTest.testDeposit", Name: "testDeposit", Line: 4, EndLine: 8,
					Assertions: []testscan.Assertion{{Line: 7, Kind: "assertEquals", Strength: testscan.Strong, Subject: "a.balance()", Expected: "10"}}},
				{ID: "SlowTest.one", Name: "one", Line: 17, EndLine: 17,
					Skip:       &testscan.Skip{Kind: testscan.SkipMarked, Line: 15},
					Assertions: []testscan.Assertion{{Line: 17, Kind: "verify", Strength: testscan.Strong, Subject: "repo", Expected: "save(item)"}}},
				{ID: "SlowTest.two", Name: "two", Line: 18, EndLine: 18,
					Skip: &testscan.Skip{Kind: testscan.SkipMarked, Line: 15},
					Assertions: []testscan.Assertion{
						{Line: 18, Kind: "verify", Strength: testscan.Medium, Negated: true, Subject: "repo", Expected: "delete(any())"},
						{Line: 18, Kind: "verifyNoMoreInteractions", Strength: testscan.Medium, Subject: "repo"},
					}},
			},
		},
		{
			name: "testng class-level @Test, enabled = false and actual-first order",
			path: "src/test/java/OrderTest.java",
			src: `import org.testng.annotations.*;
import static org.testng.Assert.assertEquals;

@Test(groups = "unit")
public class OrderTest {
    @BeforeMethod
    public void setUp() { order = new Order(); }

    public void totals() {
        assertEquals(order.total(), 30, "total");
    }

    @Test(enabled = false, description = "broken")
    public void refunds() {
        assertEquals(order.refund(), 0.5, 0.01);
    }
}
`,
			want: []testscan.TestCase{
				{ID: "OrderTest.totals", Name: "totals", Line: 9, EndLine: 11,
					Assertions: []testscan.Assertion{{Line: 10, Kind: "assertEquals", Strength: testscan.Strong, Subject: "order.total()", Expected: "30"}}},
				{ID: "OrderTest.refunds", Name: "refunds", Line: 13, EndLine: 16,
					Skip:       &testscan.Skip{Kind: testscan.SkipMarked, Reason: "broken", Line: 13},
					Assertions: []testscan.Assertion{{Line: 15, Kind: "assertEquals", Strength: testscan.Strong, Subject: "order.refund()", Expected: "0.5", Tolerance: "0.01"}}},
			},
		},
		{
			name: "strings, text blocks, chars and comments that look like tests",
			path: "src/test/java/LexTest.java",
			src: `class LexTest {
    private static final String A = "@Test void fake() { assertEquals(1, 2); }";
    private static final String B = """
        @Test
        void alsoFake() { fail(); }
        """;
    private static final char Q = '"';
    /* @Test void commented() { assertTrue(x); } */
    // @Disabled
    @Test
    void real() {
        String s = "assertTrue(false); return;";
        char c = '}';
        /* assertThat(x).isEqualTo(1); */
        assertEquals("}", s.substring(1, 2));
    }
}
`,
			want: []testscan.TestCase{
				{ID: "LexTest.real", Name: "real", Line: 10, EndLine: 16, CommentedAssertions: 1,
					Assertions: []testscan.Assertion{{Line: 15, Kind: "assertEquals", Strength: testscan.Strong, Subject: "s.substring(1,2)", Expected: `"}"`}}},
			},
		},
		{
			name: "fragment without the class header, starting mid-method",
			path: "src/test/java/com/acme/CartTest.java",
			src: `        cart.add(item);
        assertEquals(1, cart.size());
    }


    @Test
    void removesItem() {
        cart.remove(item);
        assertThat(cart.isEmpty()).isTrue();
    }

`,
			wantPartial: true,
			want: []testscan.TestCase{
				{ID: "CartTest.removesItem", Name: "removesItem", Line: 6, EndLine: 10,
					Assertions: []testscan.Assertion{{Line: 9, Kind: "isTrue", Strength: testscan.Medium, Subject: "cart.isEmpty()"}}},
			},
		},
		{
			name: "unterminated class body",
			path: "FooTest.java",
			src: `public class FooTest {
    @Test
    public void works() {
        assertNotNull(new Foo());
    }

    @Test
    public void cut() {
        assertTrue(x`,
			wantPartial: true,
			want: []testscan.TestCase{
				{ID: "FooTest.works", Name: "works", Line: 2, EndLine: 5,
					Assertions: []testscan.Assertion{{Line: 4, Kind: "assertNotNull", Strength: testscan.Weak, Subject: "new Foo()"}}},
				{ID: "FooTest.cut", Name: "cut", Line: 7, EndLine: 9,
					Assertions: []testscan.Assertion{{Line: 9, Kind: "assertTrue", Strength: testscan.Medium, Subject: "x"}}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := extract(t, tt.path, tt.src)
			if diff := cmp.Diff(tt.want, f.Tests, ignoreBodyHashes); diff != "" {
				t.Errorf("tests (-want +got):\n%s", diff)
			}
			if f.Partial != tt.wantPartial {
				t.Errorf("Partial = %v, want %v", f.Partial, tt.wantPartial)
			}
		})
	}
}

// JUnit Pioneer's @CartesianTest (and its older @CartesianProductTest) run the
// method once per combination of its argument sets: it is a test.
func TestCartesianTestIsATest(t *testing.T) {
	f := extract(t, "src/test/java/org/x/FormatTest.java", `package org.x;

import org.junitpioneer.jupiter.cartesian.CartesianTest;

class FormatTest {
    @CartesianTest
    @CartesianTest.MethodFactory("values")
    void formats(Object value, Locale locale) {
        assertEquals("1", Format.format(value, locale));
    }

    @CartesianProductTest({"0", "1"})
    void old(String a, String b) {
        assertNotNull(a + b);
    }

    static ArgumentSets values() {
        return ArgumentSets.argumentsForFirstParameter(1, 2);
    }
}
`)
	var got []string
	for _, tc := range f.Tests {
		got = append(got, tc.ID+":"+strconv.Itoa(len(tc.Assertions)))
	}
	want := []string{"FormatTest.formats:1", "FormatTest.old:1"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tests (-want +got):\n%s", diff)
	}
}
