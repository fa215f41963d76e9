package org.ex;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

class BuffersTest {
    @Test
    void emptyHasNoRoom() {
        assertEquals(0, Buffers.empty().capacity());
    }

    @Test
    @DisabledForJreRange(min = JRE.JAVA_17)
    void emptyBeforeRecords() {
        assertEquals(0, Buffers.empty().limit());
    }
}
