package org.ex;

import java.nio.ByteBuffer;

public final class Buffers {
    public static ByteBuffer empty() {
        return ByteBuffer.allocate(0);
    }
}
