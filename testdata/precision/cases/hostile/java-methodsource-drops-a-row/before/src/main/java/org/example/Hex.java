package org.example;

public final class Hex {
    public static int digit(char c) {
        int v = Character.digit(c, 16);
        if (v < 0) {
            throw new IllegalArgumentException("not a hex digit: " + c);
        }
        return v;
    }
}
