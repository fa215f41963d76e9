package org.x;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CalcTest {
  @Test
  void adds() {
    assertEquals(4, Calc.add(2, 2));
  }

  @Test
  void addsNegatives() {
    assertEquals(-4, Calc.add(-2, -2));
  }
}
