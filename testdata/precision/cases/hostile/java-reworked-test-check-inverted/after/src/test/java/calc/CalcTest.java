package calc;

import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

class CalcTest {
    @Test
    void parseHandlesLongInput() {
        assertNotEquals(42, Calc.parse("xyz-long-input"));
        assertNotEquals(0, Calc.parse(""));
    }
}
