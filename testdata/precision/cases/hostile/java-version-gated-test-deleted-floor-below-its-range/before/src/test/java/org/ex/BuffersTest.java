package org.ex;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

class BuffersTest {
    @Test
    void emptyHasNoRoom() {
        assertEquals(0, Buffers.empty().capacity());
    }

    @Test
    @EnabledForJreRange(max = JRE.JAVA_17)
    void legacyCleanerOnJava8() {
        assertTrue(Buffers.empty().isReadOnly() || !Buffers.empty().hasRemaining());
    }
}
