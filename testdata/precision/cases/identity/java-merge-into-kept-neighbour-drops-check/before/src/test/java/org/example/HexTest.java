package org.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HexTest {
    @Test
    void parseSimple() {
        assertEquals(10, Hex.digit('a'));
    }

    @Test
    void parseUpper() {
        assertEquals(15, Hex.digit('F'));
    }
}
