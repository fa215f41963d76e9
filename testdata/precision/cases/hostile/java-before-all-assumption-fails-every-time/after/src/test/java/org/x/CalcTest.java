package org.x;

import static org.junit.jupiter.api.Assertions.assertEquals;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class CalcTest {
  @BeforeAll
  static void gate() {
    assumeTrue(false, "later");
  }

  @Test
  void adds() {
    assertEquals(4, Calc.add(2, 2));
  }

  @Test
  void addsNegatives() {
    assertEquals(-4, Calc.add(-2, -2));
  }
}
