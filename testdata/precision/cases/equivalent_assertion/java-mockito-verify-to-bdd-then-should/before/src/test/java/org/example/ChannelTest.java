package org.example;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.times;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.mockito.MockedStatic;
import org.mockito.Mockito;

class ChannelTest {
    @Test
    void testCleanCalledOnlyOnce() {
        try (MockedStatic<Cleaner> mocked = Mockito.mockStatic(Cleaner.class)) {
            final Channel channel = new Channel();
            channel.close();
            channel.close();
            Mockito.verify(channel, times(2)).close();
        }
    }
}
