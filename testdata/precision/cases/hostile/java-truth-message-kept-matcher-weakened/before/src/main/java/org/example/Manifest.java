package org.example;

import java.util.Arrays;
import java.util.List;

public final class Manifest {
    public static List<String> imports() {
        return Arrays.asList("sun.misc;resolution:=optional", "com.google.errorprone.annotations");
    }
}
