package org.example;

import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class OriginTest {
    static String[] fixtures() {
        return new String[] {"a", "bc", "def"};
    }

    private void checkRead(final InputStream in) throws IOException {
        assertNotEquals(-1, in.read());
    }

    @ParameterizedTest
    @MethodSource("fixtures")
    void testGetInputStream(final String s) throws IOException {
        try (InputStream in = new ByteArrayInputStream(s.getBytes())) {
            checkRead(in);
        }
    }
}
