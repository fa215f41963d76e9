package org.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HexTest {
    @Test
    void testDigit() {
        for (char c = 'a'; c <= 'f'; c++) {
            testDigit(c, c - 'a' + 10);
        }
    }

    private void testDigit(char c, int expected) {
        assertEquals(expected, Hex.digit(c));
    }
}
