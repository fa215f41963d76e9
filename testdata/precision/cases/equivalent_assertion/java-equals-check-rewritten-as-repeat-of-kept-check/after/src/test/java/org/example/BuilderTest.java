package org.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

class BuilderTest {
    @Test
    void testEquals() {
        final Builder sb1 = new Builder();
        final Builder sb2 = new Builder();
        assertEquals(sb1, sb2);

        sb1.append("abc");
        assertNotEquals(sb1, sb2);
        assertNotEquals(sb1, sb2);

        sb2.append("ABC");
        assertNotEquals(sb1, sb2);
        assertNotEquals(sb1, sb2);
    }
}
