package org.ex;

import java.nio.ByteBuffer;

public final class Buffers {
    static boolean legacyCleaner() {
        return System.getProperty("java.version").startsWith("1.8");
    }

    public static ByteBuffer empty() {
        return ByteBuffer.allocate(0);
    }
}
