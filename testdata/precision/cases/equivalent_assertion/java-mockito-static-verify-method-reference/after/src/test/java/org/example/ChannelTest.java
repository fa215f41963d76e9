package org.example;

import static org.mockito.Mockito.times;

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
            mocked.verify(Cleaner::release, times(1));
        }
    }
}
