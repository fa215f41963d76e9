package org.ex;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BuffersTest {
    @Test
    void emptyHasNoRoom() {
        assertEquals(0, Buffers.empty().capacity());
    }
}
