package org.example;

public final class Cleaner {
    private static int released;

    public static void release() {
        released++;
    }
}
