package org.example;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ChannelTest {
    @Test
    void testCleanCalledOnlyOnce() {
        final CountingChannel channel = new CountingChannel();
        assertFalse(channel.isClean());
        channel.close();
        assertTrue(channel.isClean());
        channel.close();
        assertTrue(channel.isClean());
    }
}
