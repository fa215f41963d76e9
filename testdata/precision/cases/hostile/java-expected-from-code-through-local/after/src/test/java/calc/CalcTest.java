package calc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CalcTest {
    @Test
    void parseCountsRunes() {
        int expected = Calc.parse("xyz-long-input");
        assertEquals(expected, Calc.parse("xyz-long-input"));
        assertEquals(0, Calc.parse(""));
    }
}
