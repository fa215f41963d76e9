package org.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.mockito.MockedStatic;
import org.mockito.Mockito;

class ChecksumTest {
    @Test
    void testOf() {
        try (MockedStatic<Seed> mocked = Mockito.mockStatic(Seed.class)) {
            mocked.when(Seed::value).thenReturn(0L);
            assertEquals(3109L, Checksum.of(new byte[] {3, 4, 5}));
        }
    }
}
