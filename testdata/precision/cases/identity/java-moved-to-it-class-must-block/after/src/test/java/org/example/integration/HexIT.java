package org.example.integration;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HexIT {
    @Test
    void testDigits() {
        assertTrue(true);
    }
}
