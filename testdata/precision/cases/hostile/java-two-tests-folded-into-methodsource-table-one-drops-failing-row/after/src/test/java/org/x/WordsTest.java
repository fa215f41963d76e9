package org.x;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class WordsTest {

    static Stream<Arguments> testWrapStringIntBooleanString() {
        return Stream.of(
                arguments(null, -1, false, "/", null),
                arguments("flammable/inflammable", 30, false, "/", "flammable/inflammable"),
                arguments("flammable/inflammable", 2, false, "/", "flammable\ninflammable"),
                arguments("a/a/a/a", -1, false, "/", "a\na\na\na"));
    }

    @ParameterizedTest
    @MethodSource
    void testWrapStringIntBooleanString(final String str, final int width, final boolean longWords, final String on, final String expected) {
        assertEquals(expected, Words.wrap(str, width, longWords, on));
    }
}
