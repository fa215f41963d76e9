package org.example;

public final class Num {
    public static Long createLong(final String s) {
        return s == null ? null : Long.decode(s.trim().isEmpty() ? "x" : s);
    }
}
