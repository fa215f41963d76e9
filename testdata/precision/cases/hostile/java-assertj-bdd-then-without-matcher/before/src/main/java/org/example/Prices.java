package org.example;

public final class Prices {
    public static long total(final long... cents) {
        long sum = 0;
        for (final long c : cents) {
            if (c < 0) {
                throw new IllegalArgumentException("negative price: " + c);
            }
            sum += c;
        }
        return sum;
    }
}
