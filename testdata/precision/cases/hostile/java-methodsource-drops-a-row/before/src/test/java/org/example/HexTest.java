package org.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class HexTest {
    @ParameterizedTest
    @ValueSource(strings = {"a", "b", "g"})
    void testDigit(final String s) {
        assertEquals(s.charAt(0) - 'a' + 10, Hex.digit(s.charAt(0)));
    }
}
