package org.x;

public final class Words {
    public static String wrap(String s, int width, boolean longWords, String on) {
        return s == null ? null : s.replace(on, "\n");
    }

    /** @deprecated use {@link #wrap(String, int, boolean, String)}. */
    @Deprecated
    public static String legacyWrap(String s) {
        return s.replace(' ', '\n');
    }
}
