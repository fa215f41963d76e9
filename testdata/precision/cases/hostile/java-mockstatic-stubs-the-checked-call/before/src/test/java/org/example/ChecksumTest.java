package org.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ChecksumTest {
    @Test
    void testOf() {
        assertEquals(3109L, Checksum.of(new byte[] {3, 4, 5}));
    }
}
