package org.example;

import static com.google.common.truth.Truth.assertThat;

import org.junit.Test;

public class JsonTest {
  @Test
  public void testNames() {
    String[] names = Json.point(1, 2).split(",");
    assertThat(names).isNotNull();
    assertThat(names[0]).isNotNull();
  }
}
