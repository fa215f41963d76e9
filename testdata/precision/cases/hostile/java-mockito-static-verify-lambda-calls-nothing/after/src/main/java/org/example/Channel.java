package org.example;

import java.nio.ByteBuffer;

public final class Channel implements AutoCloseable {
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(16);
    private boolean closed;

    @Override
    public void close() {
        if (!closed) {
            buffer.clear();
            Cleaner.release();
            closed = true;
        }
    }
}
