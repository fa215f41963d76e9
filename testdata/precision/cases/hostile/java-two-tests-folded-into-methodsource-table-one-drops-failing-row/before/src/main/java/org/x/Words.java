package org.x;

public final class Words {
    public static String wrap(String s, int width, boolean longWords, String on) {
        return s == null ? null : s.replace(on, "\n");
    }
}
