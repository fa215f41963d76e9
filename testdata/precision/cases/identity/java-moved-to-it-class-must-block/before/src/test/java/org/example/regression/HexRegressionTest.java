package org.example.regression;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.example.Hex;
import org.junit.jupiter.api.Test;

class HexRegressionTest {
    @Test
    void testLowerCase() {
        assertEquals(10, Hex.digit('a'));
    }

    @Test
    void testUpperCase() {
        assertEquals(15, Hex.digit('F'));
    }
}
