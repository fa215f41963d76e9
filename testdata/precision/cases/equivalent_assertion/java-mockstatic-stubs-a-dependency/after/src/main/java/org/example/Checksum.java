package org.example;

public final class Checksum {
    public static long of(final byte[] data) {
        long sum = Seed.value();
        for (final byte b : data) {
            sum = sum * 31 + b;
        }
        return sum;
    }
}
