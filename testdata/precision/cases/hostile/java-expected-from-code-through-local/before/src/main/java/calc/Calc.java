package calc;

public final class Calc {
    public static int parse(String s) {
        return s.length() * 3;
    }
}
