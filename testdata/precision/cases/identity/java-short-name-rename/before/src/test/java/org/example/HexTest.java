package org.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HexTest {
    @Test
    void testG() {
        for (char c = 'a'; c <= 'f'; c++) {
            testG(c, c - 'a' + 10);
        }
    }

    private void testG(char c, int expected) {
        assertEquals(expected, Hex.digit(c));
    }
}
