package org.x;

import static org.junit.jupiter.api.Assertions.assertEquals;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

class CalcTest {
  @BeforeEach
  void setUp(TestInfo info) {
    assumeTrue(!info.getDisplayName().contains("Negatives"));
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
