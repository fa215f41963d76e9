package org.example;

public final class Json {
    public static String point(int x, int y) {
        return "{\"x\":" + x + ",\"y\":" + y + "}";
    }
}
