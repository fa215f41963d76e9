package org.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HexTest {
    @Test
    void g() {
        assertTrue(true);
    }

    private void testG(char c, int expected) {
        assertEquals(expected, Hex.digit(c));
    }
}
