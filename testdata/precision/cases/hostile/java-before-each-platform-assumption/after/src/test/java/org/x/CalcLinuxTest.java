package org.x;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class CalcLinuxTest {
  @BeforeEach
  void onlyOnLinux() {
    assumeTrue(System.getProperty("os.name").startsWith("Linux"));
  }

  @Test
  void addsLarge() {
    assertEquals(2_000_000, Calc.add(1_000_000, 1_000_000));
  }
}
