package org.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class NumTest {
    @Test
    void testCreateLong() {
        assertEquals(Long.valueOf(12345), Num.createLong("12345"));
        assertNull(Num.createLong(null));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "\t\n"})
    void testCreateLongFailure(final String str) {
        assertThrows(NumberFormatException.class, () -> Num.createLong(str));
    }
}
