package org.example;

import java.nio.ByteBuffer;

public final class Cleaner {
    public static void clean(final ByteBuffer buffer) {
        buffer.clear();
    }
}
