package org.example;

public final class Seed {
    public static long value() {
        return Long.getLong("checksum.seed", 0L);
    }
}
