package org.example;

import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OriginTest {
    @ParameterizedTest
    @ValueSource(strings = {"a", "bc"})
    void testGetInputStream(final String s) throws IOException {
        try (InputStream in = new ByteArrayInputStream(s.getBytes())) {
            assertNotEquals(-1, in.read());
        }
    }
}
