package org.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HexTest {
    @Test
    void testDigit() {
        assertEquals(10, Hex.digit('a'));
        assertEquals(15, Hex.digit('F'));
        assertThrows(IllegalArgumentException.class, () -> Hex.digit('g'));
        assertThrows(IllegalArgumentException.class, () -> Hex.digit('\uFF41'));
    }
}
