package org.x;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class CalcTest {
  @Test
  public void adds() {
    assertEquals(4, Calc.add(2, 2));
  }
}
