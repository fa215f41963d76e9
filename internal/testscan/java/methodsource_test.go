package java

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMethodSourceRows(t *testing.T) {
	f := extract(t, "src/test/java/org/x/HexTest.java", `package org.x;

class HexTest {
    static String[] fixtures() {
        return new String[] { "a", // first
                "b" };
    }

    static Stream<Arguments> testPairs() {
        return Stream.of(
                arguments("x", 1),
                Arguments.of("y", -2));
    }

    static List<String> looped() {
        List<String> out = new ArrayList<>();
        for (String s : ALL) {
            out.add(s);
        }
        return out;
    }

    static String[] empty() {
        return new String[] {};
    }

    @ParameterizedTest
    @MethodSource("fixtures")
    void digit(String s) { assertEquals(1, Hex.digit(s)); }

    @ParameterizedTest
    @MethodSource
    void testPairs(String s, int n) { assertEquals(n, Hex.len(s)); }

    @ParameterizedTest
    @MethodSource("looped")
    void looped(String s) { assertNotNull(s); }

    @ParameterizedTest
    @MethodSource("empty")
    void none(String s) { assertNotNull(s); }

    @ParameterizedTest
    @MethodSource("org.x.Other#values")
    void elsewhere(String s) { assertNotNull(s); }
}
`)
	var got []string
	for _, tc := range f.Tests {
		got = append(got, tc.ID)
	}
	want := []string{
		"HexTest.digit[1]", "HexTest.digit[2]",
		"HexTest.testPairs[1]", "HexTest.testPairs[2]",
		"HexTest.looped", "HexTest.none", "HexTest.elsewhere",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	for _, tc := range f.Tests {
		if tc.ID == "HexTest.testPairs[2]" {
			if diff := cmp.Diff([]string{`"y"`, "-2"}, tc.Literals[:2]); diff != "" {
				t.Errorf("testPairs[2] row literals (-want +got):\n%s", diff)
			}
		}
	}
}
