package org.example.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.example.Hex;
import org.junit.jupiter.api.Test;

class HexIT {
    @Test
    void testDigits() {
        assertEquals(10, Hex.digit('a'));
        assertEquals(15, Hex.digit('F'));
        assertEquals(0, Hex.digit('0'));
    }
}
