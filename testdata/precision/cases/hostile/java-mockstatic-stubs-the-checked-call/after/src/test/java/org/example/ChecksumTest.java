package org.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.mockito.MockedStatic;
import org.mockito.Mockito;

class ChecksumTest {
    @Test
    void testOf() {
        try (MockedStatic<Checksum> mocked = Mockito.mockStatic(Checksum.class)) {
            mocked.when(() -> Checksum.of(new byte[] {3, 4, 5})).thenReturn(3109L);
            assertEquals(3109L, Checksum.of(new byte[] {3, 4, 5}));
        }
    }
}
