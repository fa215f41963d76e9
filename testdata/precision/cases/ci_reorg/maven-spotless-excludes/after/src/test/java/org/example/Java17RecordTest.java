package org.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class Java17RecordTest {
    record Point(int x, int y) {}

    @Test
    void testRecord() {
        assertEquals(1, new Point(1, 2).x());
    }
}
